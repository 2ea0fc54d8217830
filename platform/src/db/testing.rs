//! Fresh databases for the tests of this crate and of the crates above it: SQLite in a temporary
//! folder, PostgreSQL on the server of `MG_TEST_POSTGRES_URL` (dropped after). No build of the
//! server calls it.

use super::Database;

/// A fresh SQLite database in a temporary folder (kept while the folder lives).
pub async fn test_database() -> (tempfile::TempDir, Database) {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display());
    let db = Database::connect(&url, None).await.expect("database");
    (dir, db)
}

/// For the unit tests: [`test_database`] in which each of `users` was first seen at 0.
pub async fn test_database_of(users: &[&str]) -> (tempfile::TempDir, Database) {
    let (dir, db) = test_database().await;
    for user in users {
        db.find_or_create_user(user, None, 0).await.expect("user");
    }
    (dir, db)
}

/// For the unit tests: a use of `user`'s session `key` at `now_ms`, which then lives until
/// `expires_at_ms`.
pub async fn test_touch(db: &Database, user: &str, key: &str, expires_at_ms: i64, now_ms: i64) {
    db.touch_session(user, key, expires_at_ms, now_ms)
        .await
        .expect("touch");
}

/// A fresh, empty PostgreSQL database on the server of `MG_TEST_POSTGRES_URL` (its URL), or `None`
/// when that is not set outside CI (in CI a missing PostgreSQL fails the test instead). Named as
/// the API tests name theirs (`mg_test_{unix seconds}_{id}`), so their sweep drops it if the test
/// that made it fails; [`drop_test_postgres`] drops it when the test passes.
pub async fn test_postgres() -> Option<String> {
    use sqlx::{Connection, Executor, PgConnection};
    let Some(admin_url) = std::env::var("MG_TEST_POSTGRES_URL")
        .ok()
        .filter(|url| !url.is_empty())
    else {
        assert!(
            std::env::var("CI").is_err(),
            "CI must run the PostgreSQL tests: set MG_TEST_POSTGRES_URL"
        );
        eprintln!("MG_TEST_POSTGRES_URL is not set: PostgreSQL variant not run locally");
        return None;
    };
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs())
        .unwrap_or(0);
    let name = format!("mg_test_{seconds}_{}", uuid::Uuid::now_v7().simple());
    let mut admin = PgConnection::connect(&admin_url)
        .await
        .expect("connect to the PostgreSQL test server");
    admin
        .execute(format!(r#"CREATE DATABASE "{name}""#).as_str())
        .await
        .expect("create the test database");
    let (base, _) = admin_url
        .rsplit_once('/')
        .expect("MG_TEST_POSTGRES_URL looks like postgres://user:pass@host:port/db");
    Some(format!("{base}/{name}"))
}

/// Runs `test` on a fresh PostgreSQL database ([`test_postgres`]; not at all without one), then
/// closes its connections and drops it.
pub async fn on_test_postgres(test: impl AsyncFnOnce(&Database)) {
    let Some(url) = test_postgres().await else {
        return;
    };
    let db = Database::connect(&url, None).await.expect("database");
    test(&db).await;
    db.pool().close().await;
    drop_test_postgres(&url).await;
}

/// Drops a database [`test_postgres`] made.
pub async fn drop_test_postgres(url: &str) {
    use sqlx::{Connection, Executor, PgConnection};
    let (Ok(admin_url), Some((_, name))) =
        (std::env::var("MG_TEST_POSTGRES_URL"), url.rsplit_once('/'))
    else {
        return;
    };
    if let Ok(mut admin) = PgConnection::connect(&admin_url).await {
        let _ = admin
            .execute(format!(r#"DROP DATABASE IF EXISTS "{name}" WITH (FORCE)"#).as_str())
            .await;
    }
}

/// A crate's two query-plan tests, `statements_use_indexes_on_sqlite` and `..._on_postgres`: each
/// `$scenario(&Database)` in turn on a fresh database of each engine (PostgreSQL's through
/// [`on_test_postgres`], where there is one).
#[macro_export]
macro_rules! plan_tests {
    ($($scenario:path),+ $(,)?) => {
        #[tokio::test]
        async fn statements_use_indexes_on_sqlite() {
            let (_dir, db) = $crate::db::testing::test_database().await;
            $($scenario(&db).await;)+
        }

        #[tokio::test]
        async fn statements_use_indexes_on_postgres() {
            $crate::db::testing::on_test_postgres(async |db| {
                $($scenario(db).await;)+
            })
            .await;
        }
    };
}
