//! Seeds a database with many users for the tests and benches that measure how costs grow with the
//! data (the query-plan test, the scale smoke test, `benches/scale`): each statement generates its
//! rows inside the database (a recursive CTE on SQLite, `generate_series` on PostgreSQL), so a
//! million users take seconds rather than a million round trips. No build of the server calls it.
//!
//! User `i` (from 1) has identity id `user-{i}`, user key `key-{i}`, and sessions `s{i}-{j}` of
//! binding `b{i}-{j}` (and previous binding `p{i}-{j}`) for `j` in `1..=SESSIONS_PER_USER`.

use super::{Backend, Database};

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

    /// Refreshes the planner's statistics (`ANALYZE`), as a deployed database's autovacuum (on
    /// PostgreSQL) or `PRAGMA optimize` (on SQLite) would have by the time it is this large.
    pub async fn analyze(&self) -> Result<(), sqlx::Error> {
        sqlx::query("ANALYZE").execute(self.pool()).await?;
        Ok(())
    }
}
