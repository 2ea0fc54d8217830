//! No acknowledged write is lost. The database is broken under a running server, every write
//! endpoint is tried, the database is repaired, and then every write answered 200 must be stored
//! and every refused one (503 JSON, with an ERROR line in the log) absent:
//! - SQLite on a small tmpfs filled to the last byte (a read-only remount cannot be staged: Linux
//!   refuses it while the server holds the database open for writing);
//! - PostgreSQL turned read-only (`default_transaction_read_only`, what a failover to a standby
//!   gives). Its full disk cannot be staged here: PostgreSQL's write-ahead log lives in the shared
//!   cluster's own directory, which a test cannot fill without breaking every other test.
//!
//! `/db-health` and the status page's database component must say unhealthy while writes fail.
//! Mounting needs root (CI runs as root); elsewhere the SQLite variant says so and passes, except
//! under `CI`, where that is a failure.

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::Command,
    sync::{Arc, Mutex},
};

use mg_server::config::Config;
use serde_json::{json, Value};

use crate::{
    emulator::{code_for, emulator_on, exchange, sign_in},
    helpers::{spawn_app_with, TestApp, TestBackend},
};

/// A tmpfs of a few MiB that the test can fill and free.
pub(crate) struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    pub(crate) fn mount() -> Option<Self> {
        let dir = tempfile::tempdir().expect("mount point");
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs"])
            .arg(dir.path())
            .status()
            .is_ok_and(|s| s.success());
        if mounted {
            return Some(Self { dir });
        }
        assert!(
            std::env::var("CI").is_err(),
            "CI must run the full-disk tests: they mount a tmpfs, which needs root"
        );
        eprintln!("cannot mount a tmpfs (not root?): the full-disk test is not run here");
        None
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    fn filler(&self) -> PathBuf {
        self.path().join("filler")
    }

    /// Writes until the file system has no byte left.
    pub(crate) fn fill(&self) {
        let mut file = std::fs::File::create(self.filler()).expect("filler");
        let block = vec![0xA5u8; 64 * 1024];
        let mut size = block.len();
        while size > 0 {
            // A short write is fine: the next one takes the rest of the space or fails.
            if file.write(&block[..size]).is_err() {
                size /= 2;
            }
        }
        let _ = file.sync_all();
    }

    pub(crate) fn free(&self) {
        std::fs::remove_file(self.filler()).expect("remove the filler");
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(self.path()).status();
    }
}

/// The server's log lines at ERROR, captured for this test's thread (the server's tasks run on it:
/// `#[tokio::test]` is a current-thread runtime).
#[derive(Clone, Default)]
pub(crate) struct ErrorLog(Arc<Mutex<Vec<u8>>>);

impl Write for ErrorLog {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("log").extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl ErrorLog {
    /// A log capturing from now until the guard is dropped.
    pub(crate) fn installed() -> (Self, tracing::subscriber::DefaultGuard) {
        let log = Self::default();
        let writer = log.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::ERROR)
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish();
        (log, tracing::subscriber::set_default(subscriber))
    }

    pub(crate) fn lines(&self) -> usize {
        let text = String::from_utf8_lossy(&self.0.lock().expect("log")).into_owned();
        text.lines().filter(|line| line.contains("ERROR")).count()
    }
}

/// One person of the scenario: signed in through the emulator before the fault.
struct Person {
    token: String,
    session: String,
    email: String,
}

async fn person(app: &TestApp, i: usize) -> Person {
    let email = format!("kept-{i}@example.com");
    let jwt = sign_in(app, "github", &[("email", &email), ("name", "Kept")]).await;
    let token = jwt["sessionJwt"]
        .as_str()
        .expect("session token")
        .to_owned();
    let session = format!("durable-session-{i:04}");
    let answer = app
        .post_in_session("/api/auth/current-user", &token, &session, &json!({}))
        .await;
    assert_eq!(answer.status(), 200);
    Person {
        token,
        session,
        email,
    }
}

/// A write's answer: 200, or a refusal that is a 503 JSON saying the database is unavailable.
async fn answered(response: reqwest::Response, what: &str) -> bool {
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    match status {
        200 => true,
        503 => {
            let code = body["code"].as_str().or(body["errorCode"].as_str());
            assert!(code.is_some(), "{what}: a 503 says why in JSON: {body}");
            false
        }
        other => panic!("{what}: 200 or 503 expected, got {other}: {body}"),
    }
}

async fn name_of(app: &TestApp, person: &Person) -> Value {
    let answer = app
        .post_in_session(
            "/api/auth/current-user",
            &person.token,
            &person.session,
            &json!({}),
        )
        .await;
    let status = answer.status();
    let body: Value = answer.json().await.expect("JSON");
    assert_eq!(status, 200, "{body}");
    body["data"]["name"].clone()
}

/// What the fault did to the writes tried during it.
#[derive(Default)]
struct Ledger {
    answered: usize,
    refused: usize,
}

impl Ledger {
    fn count(&mut self, ok: bool) -> bool {
        if ok {
            self.answered += 1;
        } else {
            self.refused += 1;
        }
        ok
    }
}

/// Signs people in, breaks the database with `break_it`, tries every write, repairs it with
/// `repair`, and checks the ledger against what is stored.
async fn no_acknowledged_write_is_lost<B, R>(app: &TestApp, break_it: B, repair: R)
where
    B: AsyncFnOnce(),
    R: AsyncFnOnce(),
{
    let (log, _guard) = ErrorLog::installed();
    let people: Vec<Person> = futures_join(app, 8).await;
    let logout_key = |p: &Person| {
        format!(
            "SELECT COUNT(*) FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE u.identity_id = (SELECT user_id FROM emulator_users WHERE email = '{}')",
            p.email
        )
    };
    assert_eq!(app.get("/db-health").await.status(), 200);
    // The next /db-health writes again rather than give this answer (the server's clock moved on).
    app.config.clock.advance(mg_server::db::probe::PROBE_REUSE);

    break_it().await;
    let mut ledger = Ledger::default();
    // Profile saves (a write whose commit is the last step), one per person, twice.
    let mut saved = Vec::new();
    for round in 0..2 {
        for (i, p) in people.iter().enumerate().take(6) {
            let name = format!("Saved {i}.{round}");
            let response = app.update_profile(&p.token, &json!({ "name": name })).await;
            if ledger.count(answered(response, "update-profile").await) {
                saved.push((i, name));
            }
        }
    }
    // Logouts (a delete) of the last two people's sessions.
    let mut logged_out = Vec::new();
    for (i, p) in people.iter().enumerate().skip(6) {
        let response = app
            .post_in_session("/api/auth/logout", &p.token, &p.session, &json!({}))
            .await;
        logged_out.push((i, ledger.count(answered(response, "logout").await)));
    }
    // New accounts: the emulator's exchange stores the account; the API's first sight stores the
    // user and the session.
    let mut newcomers = Vec::new();
    for i in 0..3 {
        let email = format!("new-{i}@example.com");
        let code = code_for(app, "google", &[("email", &email), ("name", "New")]).await;
        let response = exchange(app, &code).await;
        let status = response.status().as_u16();
        let body: Value = response.json().await.expect("JSON");
        let exchanged = match status {
            200 => true,
            503 => {
                assert!(body["errorCode"].is_string(), "{body}");
                false
            }
            other => panic!("exchange: {other} {body}"),
        };
        ledger.count(exchanged);
        let mut first_sight = None;
        if exchanged {
            let token = body["sessionJwt"].as_str().expect("token").to_owned();
            let response = app
                .post_in_session(
                    "/api/auth/current-user",
                    &token,
                    &format!("newcomer-session-{i:04}"),
                    &json!({}),
                )
                .await;
            first_sight = Some(ledger.count(answered(response, "first current-user").await));
        }
        newcomers.push((email, exchanged, first_sight));
    }
    assert!(
        ledger.refused > 0,
        "the fault refused no write: the test did not test anything"
    );
    let health = app.get("/db-health").await;
    assert_eq!(health.status(), 503, "db-health while writes fail");
    let body: Value = health.json().await.expect("JSON");
    let message = body["error"].as_str().expect("error").to_owned();
    assert!(message.contains("write"), "{message}");
    let report = app.status.check_now(mg_server::time::now_ms()).await;
    assert!(
        report.pending > 0,
        "the round's checks are held: {report:?}"
    );
    let summary: Value = app.get("/api/status").await.json().await.expect("JSON");
    let db = crate::status::component(&summary, "db");
    assert_ne!(db["state"], "operational", "{summary}");
    assert!(
        log.lines() >= ledger.refused,
        "every refused write logs an ERROR line: {} lines for {} refusals",
        log.lines(),
        ledger.refused
    );

    repair().await;
    // The next /db-health writes again rather than give this answer (the server's clock moved on);
    // it answers 200 once the pool's connections the repair ended are replaced (real connections:
    // polled, within 10 s).
    app.config.clock.advance(mg_server::db::probe::PROBE_REUSE);
    crate::status_outage::wait_for_db_health(app).await;
    for (i, p) in people.iter().enumerate().take(6) {
        let last = saved
            .iter()
            .rev()
            .find(|(who, _)| *who == i)
            .map(|(_, name)| json!(name));
        assert_eq!(
            name_of(app, p).await,
            last.unwrap_or(Value::Null),
            "person {i}: the stored name is the last one acknowledged"
        );
    }
    for (i, ended) in logged_out {
        let left = app.scalar(&logout_key(&people[i])).await;
        assert_eq!(left, i64::from(!ended), "person {i}'s session after logout");
    }
    for (email, exchanged, first_sight) in newcomers {
        let accounts = app
            .scalar(&format!(
                "SELECT COUNT(*) FROM emulator_users WHERE email = '{email}'"
            ))
            .await;
        assert_eq!(accounts, i64::from(exchanged), "{email}'s emulator account");
        let users = app
            .scalar(&format!(
                "SELECT COUNT(*) FROM users WHERE identity_id IN \
                 (SELECT user_id FROM emulator_users WHERE email = '{email}')"
            ))
            .await;
        assert_eq!(
            users,
            i64::from(first_sight == Some(true)),
            "{email}'s user row"
        );
    }
    let report = app.status.check_now(mg_server::time::now_ms() + 1).await;
    assert_eq!(
        report.pending, 0,
        "held checks written once the database is back"
    );
}

/// Signs `n` people in, one after the other (the emulator's sign-in is a page round trip).
async fn futures_join(app: &TestApp, n: usize) -> Vec<Person> {
    let mut people = Vec::with_capacity(n);
    for i in 0..n {
        people.push(person(app, i).await);
    }
    people
}

/// A server configured by `adjust` on a SQLite database on `disk`.
pub(crate) async fn sqlite_on(disk: &SmallDisk, adjust: impl FnOnce(&mut Config)) -> TestApp {
    let url = format!("sqlite://{}?mode=rwc", disk.path().join("mg.db").display());
    let on_disk = url.clone();
    let mut app = spawn_app_with(TestBackend::Sqlite, move |config| {
        adjust(config);
        config.database_url = on_disk;
    })
    .await
    .expect("SQLite always runs");
    // What the test reads back is the database the server writes.
    app.database_url = url;
    app
}

/// Declares the two tests of a scenario `scenario(&app, break_it, repair)` that breaks the database
/// under a server configured by `adjust` and repairs it: `$full_disk`, SQLite on a small disk filled
/// and freed; `$read_only`, PostgreSQL made read-only and writable again.
macro_rules! under_write_faults {
    ($full_disk:ident, $read_only:ident, $scenario:path, $adjust:expr) => {
        #[tokio::test]
        async fn $full_disk() {
            let Some(disk) = crate::durability::SmallDisk::mount() else {
                return;
            };
            let app = crate::durability::sqlite_on(&disk, $adjust).await;
            $scenario(&app, async || disk.fill(), async || disk.free()).await;
        }

        #[tokio::test]
        async fn $read_only() {
            use crate::{durability::postgres_read_only, helpers::TestBackend};
            let Some(app) = crate::helpers::spawn_app_with(TestBackend::Postgres, $adjust).await
            else {
                return;
            };
            let url = app.database_url.clone();
            $scenario(
                &app,
                async || postgres_read_only(&url, true).await,
                async || postgres_read_only(&url, false).await,
            )
            .await;
            crate::helpers::drop_postgres_database(&url).await;
        }
    };
}

under_write_faults!(
    a_full_disk_refuses_writes_with_503_and_loses_none_it_acknowledged,
    a_read_only_postgres_refuses_writes_with_503_and_loses_none_it_acknowledged,
    no_acknowledged_write_is_lost,
    emulator_on
);

/// Whether a write was acknowledged: one of `stored` (its success statuses), or a 503 whose JSON says
/// the database is unavailable (refused). Anything else fails the test.
pub(crate) async fn acknowledged(response: reqwest::Response, what: &str, stored: &[u16]) -> bool {
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    if stored.contains(&status) {
        return true;
    }
    assert_eq!(status, 503, "{what}: {stored:?} or 503 expected: {body}");
    assert_eq!(body["code"], "database_unavailable", "{what}: {body}");
    false
}

/// Sets the test database's default for new transactions and ends its connections, so the pool's
/// next connections start with it.
pub(crate) async fn postgres_read_only(database_url: &str, read_only: bool) {
    let admin_url = crate::helpers::postgres_admin_url().expect("PostgreSQL");
    let name = database_url.rsplit_once('/').expect("database name").1;
    let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&admin_url)
        .await
        .expect("admin connection");
    let setting = if read_only {
        format!(r#"ALTER DATABASE "{name}" SET default_transaction_read_only = on"#)
    } else {
        format!(r#"ALTER DATABASE "{name}" RESET default_transaction_read_only"#)
    };
    sqlx::Executor::execute(&mut admin, setting.as_str())
        .await
        .expect("alter database");
    sqlx::query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1")
        .bind(name)
        .execute(&mut admin)
        .await
        .expect("end the database's connections");
}
