//! Seeds a database with many users, or with a status history, for the tests and benches that
//! measure how costs grow with the data (the query-plan tests, the scale smoke test,
//! `benches/scale`, the status round's bench and answer-size test): each statement generates its
//! rows inside the database (a recursive CTE on SQLite, `generate_series` on PostgreSQL), so a
//! million users take seconds rather than a million round trips. No build of the server calls it.
//!
//! User `i` (from 1) has identity id `user-{i}`, user key `key-{i}`, and sessions `s{i}-{j}` of
//! binding `b{i}-{j}` (and previous binding `p{i}-{j}`) for `j` in `1..=SESSIONS_PER_USER`.
//!
//! The status history covers the components `api`, `db` and `queue`; notice `i` (from 0) is the
//! incident `n{i}`, titled `Slow {i}`, and its update `seq` (from 1) has the text
//! `text(i * 100 + seq, chars)`.

use super::{Backend, Database};
use crate::time::HOUR_MS;

/// Sessions each seeded user has.
pub const SESSIONS_PER_USER: i64 = 3;

/// When every seeded session, revoked binding and not-before time expires (unix ms): far ahead,
/// so a seeded row is live at any time a test or bench uses (before this).
pub const SEEDED_EXPIRY_MS: i64 = 10_000_000_000_000;

/// The numbers `from..=to` as a one-column row source `n(i)`, a `WITH` to put before a statement.
pub fn numbers(backend: Backend, from: i64, to: i64) -> String {
    match backend {
        Backend::Postgres => format!("WITH n(i) AS (SELECT generate_series({from}, {to})) "),
        Backend::Sqlite => format!(
            "WITH RECURSIVE n(i) AS (SELECT {from} UNION ALL SELECT i + 1 FROM n WHERE i < {to}) "
        ),
    }
}

/// The seeded component of row `i` of [`numbers`]: `api`, `db` and `queue` in turn.
const COMPONENT_OF_I: &str = "CASE i % 3 WHEN 0 THEN 'api' WHEN 1 THEN 'db' ELSE 'queue' END";

/// `chars` characters of letters and spaces from a pseudo-random stream of `seed`: text for the
/// tests and benches of status answers at the operators' limits, which compresses by a quarter or
/// so rather than to nothing.
pub fn text(seed: u64, chars: usize) -> String {
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    (0..chars)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            match (state >> 59) as u8 % 27 {
                26 => ' ',
                letter => (b'a' + letter) as char,
            }
        })
        .collect()
}

impl Database {
    /// Adds users `from..=to`, each with [`SESSIONS_PER_USER`] sessions, one revoked binding
    /// (`gone-{i}`: a signed-out session's tombstone) and a not-before time; then refreshes the
    /// planner's statistics. Sessions are created and last seen at `i` ms, so the users' sessions
    /// sort by use as they were made.
    pub async fn seed_users(&self, from: i64, to: i64) -> Result<(), sqlx::Error> {
        let n = numbers(self.backend(), from, to);
        let mut transaction = self.pool().begin().await?;
        for statement in [
            format!(
                "{n}INSERT INTO users (identity_id, email, created_at) \
                 SELECT 'user-' || i, 'user-' || i || '@example.com', i FROM n"
            ),
            format!(
                "{n}INSERT INTO sessions (user_id, session_key, created_at, last_seen_at, \
                     expires_at, label, binding, previous_binding) \
                 SELECT u.id, 's' || n.i || '-' || j.j, n.i + j.j, n.i + j.j, \
                     {SEEDED_EXPIRY_MS}, 'Firefox on Linux', 'b' || n.i || '-' || j.j, \
                     'p' || n.i || '-' || j.j \
                 FROM n JOIN users u ON u.identity_id = 'user-' || n.i \
                 CROSS JOIN (SELECT 1 AS j UNION ALL SELECT 2 UNION ALL SELECT 3) j"
            ),
            format!(
                "{n}INSERT INTO revoked_tokens (binding, user_key, revoked_at, expires_at) \
                 SELECT 'gone-' || i, 'key-' || i, i, {SEEDED_EXPIRY_MS} FROM n"
            ),
            format!(
                "{n}INSERT INTO token_cutoffs (user_key, not_before, exempt_binding, expires_at) \
                 SELECT 'key-' || i, i, 'b' || i || '-1', {SEEDED_EXPIRY_MS} FROM n"
            ),
        ] {
            sqlx::query(&statement).execute(&mut *transaction).await?;
        }
        transaction.commit().await?;
        self.analyze().await
    }

    /// Adds `notices` incidents on `api`, an hour apart up to `now`, each of `updates` updates of
    /// `chars` characters a minute apart, the newest `open` still open (the others' last update
    /// resolves them). Written straight into the updates' table: its trigger keeps the notices' rows.
    pub async fn seed_notices(
        &self,
        now: i64,
        notices: i64,
        open: i64,
        updates: i64,
        chars: usize,
    ) -> Result<(), sqlx::Error> {
        for notice in 0..notices {
            let resolved = notice < notices - open;
            let start = now - (notices - notice) * HOUR_MS;
            let rows: Vec<String> = (1..=updates)
                .map(|seq| {
                    let status = if seq == updates && resolved {
                        "resolved"
                    } else {
                        "investigating"
                    };
                    format!(
                        "('n{notice}', {seq}, 'incident', 'Slow {notice}', 'minor', 'api', \
                         '{status}', '{}', {}, 'ops')",
                        text((notice * 100 + seq) as u64, chars),
                        start + seq * 60_000
                    )
                })
                .collect();
            sqlx::query(&format!(
                "INSERT INTO status_notice_updates (notice_id, seq, kind, title, impact, \
                 components, status, body, created_at, author) VALUES {}",
                rows.join(", ")
            ))
            .execute(self.pool())
            .await?;
        }
        Ok(())
    }

    /// Adds each of `instances`' hourly rollups of the three components for `hours` hours from
    /// `first`: 120 healthy checks an hour.
    pub async fn seed_hourly_rollups(
        &self,
        instances: &[String],
        first: i64,
        hours: i64,
    ) -> Result<(), sqlx::Error> {
        let n = numbers(self.backend(), 0, hours * 3 - 1);
        for instance in instances {
            sqlx::query(&format!(
                "{n}INSERT INTO status_rollups (resolution, bucket_start, component, instance_id, \
                     checks, failures, latency_p50_us, latency_p95_us, latency_max_us) \
                 SELECT 'hour', {first} + (i / 3) * {HOUR_MS}, {COMPONENT_OF_I}, '{instance}', \
                     120, 0, 900, 1200, 3000 FROM n"
            ))
            .execute(self.pool())
            .await?;
        }
        Ok(())
    }

    /// Adds `count` healthy raw checks of each of the three components by `instance`, 30 s apart,
    /// the last at `last`.
    pub async fn seed_checks(
        &self,
        instance: &str,
        last: i64,
        count: i64,
    ) -> Result<(), sqlx::Error> {
        let n = numbers(self.backend(), 0, count * 3 - 1);
        sqlx::query(&format!(
            "{n}INSERT INTO status_checks (component, instance_id, checked_at, healthy, \
                 latency_us, error) \
             SELECT {COMPONENT_OF_I}, '{instance}', {last} - (i / 3) * 30000, 1, 900, NULL FROM n"
        ))
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Refreshes the planner's statistics (`ANALYZE`), as a deployed database's autovacuum (on
    /// PostgreSQL) or `PRAGMA optimize` (on SQLite) would have by the time it is this large.
    pub async fn analyze(&self) -> Result<(), sqlx::Error> {
        sqlx::query("ANALYZE").execute(self.pool()).await?;
        Ok(())
    }
}
