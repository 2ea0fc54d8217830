//! What the account paths cost the database as the users grow, for the scale smoke test
//! (`tests/scale_smoke.rs`) and the scale bench (`benches/scale`): on a database seeded with
//! [`Database::seed_users`], each operation is timed on users spread over the whole table, each
//! user used once per operation (the writes change them). No build of the server calls it.

use std::time::{Duration, Instant};

use super::{seed::SESSIONS_PER_USER, sessions::Revocation, Database};

/// The time of the operations, at the seed's live time (every seeded row is live then).
const NOW_MS: i64 = 1_000_000_000;

/// The operations measured, in the order [`measure`] reports them.
pub const OPERATIONS: [&str; 5] = [
    "current-user lookup",
    "token check",
    "sign out one session",
    "sign out all others",
    "delete account",
];

/// One operation's times over its samples.
#[derive(Debug, Clone)]
pub struct Cost {
    pub operation: &'static str,
    /// The 10th percentile: what the operation costs when nothing else on the machine slows it
    /// (other work only adds time), which the smoke test compares.
    pub p10: Duration,
    pub p50: Duration,
    pub p99: Duration,
}

/// The `q`-quantile of `times` (sorted here).
fn quantile(times: &mut [Duration], q: f64) -> Duration {
    times.sort_unstable();
    let last = times.len().saturating_sub(1);
    // Truncation is the intent: the sample at or below the quantile's rank.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let index = ((last as f64) * q).round() as usize;
    times.get(index).copied().unwrap_or_default()
}

/// Times each of [`OPERATIONS`] `samples` times on `db`, on seeded users of `users` (a range
/// of [`Database::seed_users`]'s numbers no earlier measurement used: the writes change them),
/// taken evenly spread over it, each once.
pub async fn measure(
    db: &Database,
    users: std::ops::RangeInclusive<i64>,
    samples: i64,
) -> Result<Vec<Cost>, sqlx::Error> {
    let operations = OPERATIONS.len() as i64;
    let stride = ((users.end() - users.start() + 1) / (samples * operations)).max(1);
    let user =
        |operation: i64, sample: i64| users.start() + (sample * operations + operation) * stride;
    let mut costs = Vec::new();
    for (index, operation) in OPERATIONS.iter().enumerate() {
        let mut times = Vec::new();
        for sample in 0..samples {
            let i = user(index as i64, sample);
            let (identity, key) = (format!("user-{i}"), format!("key-{i}"));
            let (session, binding) = (format!("s{i}-1"), format!("b{i}-1"));
            let started = Instant::now();
            match index {
                0 => {
                    let found = db.find_user_with_sessions(&identity, NOW_MS).await?;
                    assert_eq!(
                        found.map(|found| found.active_sessions),
                        Some(SESSIONS_PER_USER),
                        "{identity} is seeded"
                    );
                }
                1 => {
                    db.token_refused(&binding, &key, NOW_MS, NOW_MS).await?;
                }
                2 => {
                    let other = format!("s{i}-2");
                    let done = db
                        .revoke_session((&identity, &key), &other, &binding, NOW_MS)
                        .await?;
                    assert_eq!(done, Revocation::Done, "{identity}");
                }
                3 => {
                    let others = db
                        .revoke_other_sessions((&identity, &key), (&session, &binding), NOW_MS)
                        .await?;
                    assert_eq!(others, 2, "{identity}");
                }
                _ => {
                    assert!(
                        db.delete_account(&identity, &key, NOW_MS).await?,
                        "{identity}"
                    );
                }
            }
            times.push(started.elapsed());
        }
        costs.push(Cost {
            operation,
            p10: quantile(&mut times, 0.1),
            p50: quantile(&mut times, 0.5),
            p99: quantile(&mut times, 0.99),
        });
    }
    Ok(costs)
}
