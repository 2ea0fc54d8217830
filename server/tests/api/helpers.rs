//! `spawn_app()` and friends: a real server, a fresh database, a typed HTTP client.

use mg_server::{config::Config, startup::Application};
use serde_json::Value;
use sqlx::{Connection, Executor, PgConnection};
use tempfile::TempDir;

pub use crate::identity_double::TestIdentity;
// `tests/profile_statements.rs` includes this file by path, and uses none of these.
#[allow(unused_imports)]
pub use wire::*;

#[path = "helpers/wire.rs"]
mod wire;

#[path = "helpers/stored.rs"]
mod stored;

#[path = "helpers/template.rs"]
mod template;

/// Which database a test runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestBackend {
    Sqlite,
    Postgres,
}

/// A running server and what it needs to stay alive.
#[derive(Debug)]
pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub database_url: String,
    pub identity: TestIdentity,
    pub data_dir: TempDir,
    /// The app's status checker: `app.status.check_now(ms)` runs a round of checks.
    pub status: std::sync::Arc<mg_server::status::StatusService>,
    /// The server's run: it ends when the server stops (with an error when it refused to run).
    pub run: tokio::task::JoinHandle<std::io::Result<()>>,
    /// The configuration the server was built with (port 0, as asked): [`spawn_sibling`] starts
    /// another server from it.
    pub config: Config,
}

impl TestApp {
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{}", self.address, path))
            .send()
            .await
            .expect("request reaches the server")
    }

    /// `GET path`: the body as text, whatever the status.
    pub async fn get_text(&self, path: &str) -> String {
        self.get(path).await.text().await.expect("a text body")
    }

    /// `GET path` with these request headers, as sent: a redirect is answered, not followed.
    pub async fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        self.send_with(reqwest::Method::GET, path, headers).await
    }

    /// `method path` with these request headers, as sent: a redirect is answered, not followed.
    pub async fn send_with(
        &self,
        method: reqwest::Method,
        path: &str,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        let mut request = client.request(method, format!("{}{path}", self.address));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.expect("request reaches the server")
    }

    /// A CORS preflight of a POST to `path` from `origin`, asking to send the request `headers`.
    pub async fn preflight(&self, path: &str, origin: &str, headers: &str) -> reqwest::Response {
        self.client
            .request(
                reqwest::Method::OPTIONS,
                format!("{}{}", self.address, path),
            )
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", headers)
            .send()
            .await
            .expect("request reaches the server")
    }

    /// `POST path` with a JSON content type and an empty JSON object, as the app sends.
    pub async fn post(&self, path: &str) -> reqwest::Response {
        self.client
            .post(format!("{}{}", self.address, path))
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .expect("request reaches the server")
    }

    /// `POST path` with `Authorization: Bearer <token>` and a JSON body, to send.
    fn bearer_post(&self, path: &str, token: &str, body: &Value) -> reqwest::RequestBuilder {
        self.client
            .post(format!("{}{}", self.address, path))
            .bearer_auth(token)
            .json(body)
    }

    /// `POST path` with `Authorization: Bearer <token>` and a JSON body.
    pub async fn post_with_token(
        &self,
        path: &str,
        token: &str,
        body: &Value,
    ) -> reqwest::Response {
        let request = self.bearer_post(path, token, body);
        request.send().await.expect("request reaches the server")
    }

    pub async fn current_user(&self, token: &str) -> reqwest::Response {
        self.post_with_token("/api/auth/current-user", token, &serde_json::json!({}))
            .await
    }

    pub async fn update_profile(&self, token: &str, body: &Value) -> reqwest::Response {
        self.post_with_token("/api/auth/update-profile", token, body)
            .await
    }

    /// `POST path` with a bearer token, the app's `X-Session-Id` and a JSON body.
    pub async fn post_in_session(
        &self,
        path: &str,
        token: &str,
        session_id: &str,
        body: &Value,
    ) -> reqwest::Response {
        let request = self.bearer_post(path, token, body);
        let request = request.header("x-session-id", session_id);
        request.send().await.expect("request reaches the server")
    }

    /// A connection of the test's own to the server's database, to set up or read rows straight.
    pub async fn connect_db(&self) -> sqlx::AnyConnection {
        sqlx::any::install_default_drivers();
        sqlx::AnyConnection::connect(&self.database_url)
            .await
            .expect("test connects to its database")
    }

    /// Runs one statement straight on the database (to set up rows the API would not write).
    pub async fn execute_sql(&self, sql: &str) {
        sqlx::query(sql)
            .execute(&mut self.connect_db().await)
            .await
            .expect("statement runs");
    }

    /// The number `sql` selects (one row, one integer column), read straight from the database.
    pub async fn scalar(&self, sql: &str) -> i64 {
        sqlx::query_scalar::<_, i64>(sql)
            .fetch_one(&mut self.connect_db().await)
            .await
            .unwrap_or_else(|error| panic!("{sql}: {error}"))
    }

    /// How many rows `table` holds, read straight from the database.
    pub async fn count_rows(&self, table: &str) -> i64 {
        self.scalar(&format!("SELECT COUNT(*) FROM {table}")).await
    }
}

/// The PostgreSQL server URL for tests (a database on it is created per test).
pub fn postgres_admin_url() -> Option<String> {
    std::env::var("MG_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.is_empty())
}

/// Starts a server on a fresh database. `None` only when PostgreSQL is asked for and not configured
/// outside CI; in CI a missing PostgreSQL fails the test instead of skipping it.
/// `adjust` may change the configuration first (the rate-limit and CORS tests do).
pub async fn spawn_app_with(
    backend: TestBackend,
    adjust: impl FnOnce(&mut Config),
) -> Option<TestApp> {
    show_server_logs_when_asked();
    let data_dir = tempfile::tempdir().expect("temp dir");
    let database_url = match backend {
        TestBackend::Sqlite => {
            let path = data_dir.path().join("test.db");
            template::copy_migrated_sqlite(&path).await;
            format!("sqlite://{}?mode=rwc", path.display())
        }
        TestBackend::Postgres => match postgres_admin_url() {
            Some(admin) => fresh_postgres_database(&admin).await,
            None if std::env::var("CI").is_ok() => {
                panic!("CI must run the PostgreSQL tests: set MG_TEST_POSTGRES_URL")
            }
            None => {
                eprintln!("MG_TEST_POSTGRES_URL is not set: PostgreSQL variant not run locally");
                return None;
            }
        },
    };
    // Counted with the servers' `mg-server ready` (docs/development.md, "Time in the server's tests").
    tracing::info!(?backend, "test database made");
    Some(spawn_on(data_dir, database_url, adjust).await)
}

/// Another server on `app`'s database, as a second instance beside it (its own data directory,
/// build and identity provider).
pub async fn spawn_beside(app: &TestApp, adjust: impl FnOnce(&mut Config)) -> TestApp {
    let data_dir = tempfile::tempdir().expect("temp dir");
    spawn_on(data_dir, app.database_url.clone(), adjust).await
}

/// Another server built from `app`'s configuration (its database, data directory, build and
/// identity provider) as changed by `adjust`: a second instance beside it, or the same server after
/// a restart. Its address; it runs until the test ends.
pub async fn spawn_sibling(app: &TestApp, adjust: impl FnOnce(&mut Config)) -> String {
    let mut config = app.config.clone();
    adjust(&mut config);
    let sibling = Application::build(config).await.expect("sibling builds");
    let address = format!("http://127.0.0.1:{}", sibling.port());
    tokio::spawn(sibling.run_until_stopped());
    address
}

/// With `TEST_LOG` set (to anything but `0`), the servers' logs, filtered by `RUST_LOG` (default
/// `info`) and written as the server writes them, appear in each test's output: shown for a failing
/// test, or for all with `--nocapture`. Installed once per test binary, by the first server started
/// (every test that builds its own server without these helpers calls it first).
pub fn show_server_logs_when_asked() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if std::env::var("TEST_LOG").is_ok_and(|value| !value.is_empty() && value != "0") {
            let filter = tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
            // Another subscriber already installed (none is, in these tests) would keep its place.
            let _ = tracing_subscriber::fmt()
                .with_env_filter(filter)
                .fmt_fields(mg_server::telemetry::CappedFields)
                // Plain text: the captured output is read in files and CI logs, not a terminal.
                .with_ansi(false)
                .with_test_writer()
                .try_init();
        }
    });
}

/// Starts a server on `database_url` with its files under `data_dir`.
async fn spawn_on(
    data_dir: TempDir,
    database_url: String,
    adjust: impl FnOnce(&mut Config),
) -> TestApp {
    show_server_logs_when_asked();
    let static_dir = data_dir.path().join("dist");
    write_fake_build(&static_dir);
    let identity = TestIdentity::start().await;
    let mut config = Config {
        host: [127, 0, 0, 1].into(),
        port: 0,
        data_dir: data_dir.path().to_path_buf(),
        database_url: database_url.clone(),
        // Many tests run at once against one PostgreSQL (100 connections): keep each pool small.
        database_max_connections: Some(4),
        static_dir,
        identity_project_id: Some(identity.project_id.clone()),
        identity_base_url: Some(identity.base_url.clone()),
        identity_emulator_public: false,
        identity_audience: None,
        emulator_code_ttl: mg_server::config::EMULATOR_CODE_TTL,
        // Tests that must see a token or a code expire advance it (`app.config.clock`).
        clock: mg_server::time::Clock::default(),
        // Tests rewrite the build's files and expect the next request to see it.
        static_recheck: std::time::Duration::ZERO,
        sanctified: true,
        deployment_id: None,
        deployment_flags: None,
        deployment_type: None,
        public_url: "http://localhost:3000".into(),
        allowed_origins: vec![],
        // High enough that no ordinary test meets it; the rate-limit tests lower it.
        rate_limit_per_minute: 1_000_000,
        // Rounds of status checks run when a test calls `status.check_now`, not on a timer.
        status: mg_server::status::StatusConfig::manual("first"),
        network: Default::default(),
    };
    adjust(&mut config);
    let app = Application::build(config.clone())
        .await
        .expect("server builds");
    let address = format!("http://127.0.0.1:{}", app.port());
    let status = app.status();
    let run = tokio::spawn(app.run_until_stopped());
    TestApp {
        status,
        run,
        config,
        address,
        client: reqwest::Client::new(),
        database_url,
        identity,
        data_dir,
    }
}

/// Prefix of every test database's name; the rest is `{unix seconds}_{uuid}`.
const TEST_DATABASE_PREFIX: &str = "mg_test_";
/// A test database left behind (its test panicked, or created its own server) is dropped by a
/// later run once it is this old and nothing is connected to it.
const STALE_AFTER_SECS: u64 = 30 * 60;

fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs()
}

/// Whether a leftover database named `name` may go: an unused test database created more than
/// [`STALE_AFTER_SECS`] ago, or one named before names carried their creation time.
fn is_stale_test_database(name: &str, now: u64) -> bool {
    let Some(rest) = name.strip_prefix(TEST_DATABASE_PREFIX) else {
        return false;
    };
    match rest.split_once('_') {
        Some((created, _)) => created
            .parse::<u64>()
            .is_ok_and(|created| now.saturating_sub(created) > STALE_AFTER_SECS),
        None => true,
    }
}

/// Drops the test databases earlier runs left behind (once per test process).
async fn sweep_stale_test_databases(admin: &mut PgConnection) {
    let unused: Vec<String> = sqlx::query_scalar(
        "SELECT datname FROM pg_database d WHERE datname LIKE 'mg\\_test\\_%' \
         AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)",
    )
    .fetch_all(&mut *admin)
    .await
    .expect("list the test databases");
    let now = unix_seconds();
    for name in unused
        .iter()
        .filter(|name| is_stale_test_database(name, now))
    {
        // Another test process may be sweeping too; a database it dropped first is fine.
        let _ = admin
            .execute(format!(r#"DROP DATABASE IF EXISTS "{name}" WITH (FORCE)"#).as_str())
            .await;
    }
}

/// Drops a test database at the end of its test; the sweep catches any this misses.
pub async fn drop_postgres_database(database_url: &str) {
    let (Some(admin_url), Some((_, name))) = (postgres_admin_url(), database_url.rsplit_once('/'))
    else {
        return;
    };
    if !name.starts_with(TEST_DATABASE_PREFIX) {
        return;
    }
    if let Ok(mut admin) = PgConnection::connect(&admin_url).await {
        let _ = admin
            .execute(format!(r#"DROP DATABASE IF EXISTS "{name}" WITH (FORCE)"#).as_str())
            .await;
    }
}

/// Runs `statements`, in order, on PostgreSQL as its administrator (`MG_TEST_POSTGRES_URL`).
pub async fn as_postgres_admin(statements: &[String]) {
    let admin_url = postgres_admin_url().expect("admin url");
    let mut admin = PgConnection::connect(&admin_url)
        .await
        .expect("admin connection");
    for statement in statements {
        admin
            .execute(statement.as_str())
            .await
            .unwrap_or_else(|error| panic!("{statement}: {error}"));
    }
}

/// Creates a database with a unique name, a copy of the migrated template (`template.rs`), and
/// returns its URL.
async fn fresh_postgres_database(admin_url: &str) -> String {
    static SWEPT: tokio::sync::OnceCell<()> = tokio::sync::OnceCell::const_new();
    let name = format!(
        "{TEST_DATABASE_PREFIX}{}_{}",
        unix_seconds(),
        uuid::Uuid::new_v4().simple()
    );
    let mut admin = PgConnection::connect(admin_url)
        .await
        .expect("connect to the PostgreSQL test server");
    SWEPT
        .get_or_init(|| sweep_stale_test_databases(&mut admin))
        .await;
    let template = template::migrated_template(&mut admin, admin_url).await;
    admin
        .execute(format!(r#"CREATE DATABASE "{name}" TEMPLATE "{template}""#).as_str())
        .await
        .expect("create the test database");
    let (base, _) = admin_url
        .rsplit_once('/')
        .expect("MG_TEST_POSTGRES_URL looks like postgres://user:pass@host:port/db");
    format!("{base}/{name}")
}

/// The inline script of the fake build, whose hash must appear in the CSP.
pub const THEME_SCRIPT: &str = "document.documentElement.dataset.theme='cosmic'";

/// A stand-in for `app/dist`: the server tests check serving rules, not the app itself.
fn write_fake_build(dir: &std::path::Path) {
    std::fs::create_dir_all(dir.join("assets")).expect("create dist");
    std::fs::write(
        dir.join("index.html"),
        format!("<!doctype html><title>mg test build</title><script>{THEME_SCRIPT}</script><div id=\"root\"></div>"),
    )
    .expect("write index.html");
    std::fs::write(dir.join("assets/app-3f9a1c.js"), "console.log('app')").expect("write asset");
    // The route manifest the app's build writes (app/vite/route-manifest.ts); `/mg/made-up` is in no
    // real build, so a test can tell the server reads this file rather than a table of its own.
    std::fs::write(
        dir.join("routes.json"),
        r#"{"public": ["/", "/apotheosis", "/mg", "/metagenesis", "/telekinesis", "/bench", "/docs",
            "/mg/overview", "/mg/quickstart", "/mg/cli", "/mg/dmt", "/mg/cli/main", "/mg/cli/dmt",
            "/mg/cli/lsd", "/mg/made-up"],
            "signedIn": ["/auth/callback", "/home"], "isolated": ["/bench"]}"#,
    )
    .expect("write routes.json");
}

/// Declares one test per backend, `mod name { on_sqlite, on_postgres }`, for a scenario whose outcome
/// depends on the database: it reads or writes it, or takes it away. `on_both_backends!(scenario)`
/// names the tests after the scenario function, and `on_both_backends!(scenario, with adjust)` has
/// `adjust` change the configuration first; `on_both_backends!(name, scenario)` names them apart
/// (the scenario a function or a closure taking the `TestApp`, run under several names or
/// configurations), and a third argument is the adjustment.
macro_rules! on_both_backends {
    ($($test:tt)+) => {
        backend_tests!([sqlite_test, postgres_test] $($test)+);
    };
}

/// Declares one test on SQLite alone, `mod name { on_sqlite }`, for a scenario that never reaches
/// the database (pages, static files, headers, configuration, refusals before any handler): the
/// backend cannot change its outcome, so a PostgreSQL run would only repeat it. Named and adjusted
/// as `on_both_backends!`.
macro_rules! on_sqlite {
    ($($test:tt)+) => {
        backend_tests!([sqlite_test] $($test)+);
    };
}

/// The module of the two macros above, with one test per backend macro named (no adjustment: the
/// configuration as `spawn_app_with` makes it).
macro_rules! backend_tests {
    ([$($backend:ident),+] $scenario:ident) => {
        backend_tests!([$($backend),+] $scenario, $scenario);
    };
    ([$($backend:ident),+] $scenario:ident, with $adjust:expr) => {
        backend_tests!([$($backend),+] $scenario, $scenario, $adjust);
    };
    ([$($backend:ident),+] $name:ident, $scenario:expr) => {
        backend_tests!([$($backend),+] $name, $scenario, |_config| {});
    };
    ([$($backend:ident),+] $name:ident, $scenario:expr, $adjust:expr) => {
        mod $name {
            use super::*;

            $($backend!($scenario, $adjust);)+
        }
    };
}

/// The `on_postgres` test of `on_both_backends!`: run where PostgreSQL is configured (see
/// `spawn_app_with`), its database dropped after.
macro_rules! postgres_test {
    ($scenario:expr, $adjust:expr) => {
        #[tokio::test]
        async fn on_postgres() {
            if let Some(app) =
                crate::helpers::spawn_app_with(crate::helpers::TestBackend::Postgres, $adjust).await
            {
                let database_url = app.database_url.clone();
                ($scenario)(app).await;
                crate::helpers::drop_postgres_database(&database_url).await;
            }
        }
    };
}

/// The `on_sqlite` test of the two macros above.
macro_rules! sqlite_test {
    ($scenario:expr, $adjust:expr) => {
        #[tokio::test]
        async fn on_sqlite() {
            let app = crate::helpers::spawn_app_with(crate::helpers::TestBackend::Sqlite, $adjust)
                .await
                .expect("SQLite always runs");
            ($scenario)(app).await;
        }
    };
}

/// The value of `response`'s header `name` as text; the test fails when it is missing or not text.
pub fn header<'a>(response: &'a reqwest::Response, name: &str) -> &'a str {
    let value = response.headers().get(name);
    let value = value.unwrap_or_else(|| panic!("a {name} header"));
    value.to_str().unwrap_or_else(|_| panic!("{name} as text"))
}

/// The `data` of a 200 JSON answer; the test fails on any other status.
pub async fn data_of(response: reqwest::Response) -> Value {
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.expect("JSON body");
    body["data"].clone()
}

/// The base64 SHA-256 of `text`, as a CSP's `'sha256-…'` source names an inline script.
pub fn sha256_base64(text: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .encode(ring::digest::digest(&ring::digest::SHA256, text.as_bytes()))
}

/// `response` lets `origin` make credentialed cross-origin calls.
pub fn assert_cors_allows(response: &reqwest::Response, origin: &str) {
    let headers = response.headers();
    assert_eq!(headers["access-control-allow-origin"], origin);
    assert_eq!(headers["access-control-allow-credentials"], "true");
}

#[cfg(test)]
mod sweep_rules {
    use super::*;

    #[test]
    fn only_old_or_legacy_test_databases_are_stale() {
        let now = 1_800_000_000;
        assert!(is_stale_test_database(
            &format!("mg_test_{}_0f3a", now - STALE_AFTER_SECS - 1),
            now
        ));
        assert!(!is_stale_test_database(
            &format!("mg_test_{}_0f3a", now - 60),
            now
        ));
        assert!(is_stale_test_database("mg_test_3f2b9c0d1e", now));
        assert!(!is_stale_test_database("mg_test_soon_0f3a", now));
        assert!(!is_stale_test_database("postgres", now));
        assert!(!is_stale_test_database("mg_production", now));
    }
}
