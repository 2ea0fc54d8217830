//! `spawn_app()` and friends: a real server, a fresh database, a typed HTTP client.

use mg_server::{config::Config, startup::Application};
use sqlx::{Connection, Executor, PgConnection};
use tempfile::TempDir;

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
    _data_dir: TempDir,
}

impl TestApp {
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{}", self.address, path))
            .send()
            .await
            .expect("request reaches the server")
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
pub async fn spawn_app(backend: TestBackend) -> Option<TestApp> {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let database_url = match backend {
        TestBackend::Sqlite => format!(
            "sqlite://{}?mode=rwc",
            data_dir.path().join("test.db").display()
        ),
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
    let static_dir = data_dir.path().join("dist");
    write_fake_build(&static_dir);
    let config = Config {
        host: [127, 0, 0, 1].into(),
        port: 0,
        data_dir: data_dir.path().to_path_buf(),
        database_url: database_url.clone(),
        static_dir,
    };
    let app = Application::build(config).await.expect("server builds");
    let address = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    Some(TestApp {
        address,
        client: reqwest::Client::new(),
        database_url,
        _data_dir: data_dir,
    })
}

/// Creates an empty database with a unique name and returns its URL.
async fn fresh_postgres_database(admin_url: &str) -> String {
    let name = format!("mg_test_{}", uuid::Uuid::new_v4().simple());
    let mut admin = PgConnection::connect(admin_url)
        .await
        .expect("connect to the PostgreSQL test server");
    admin
        .execute(format!(r#"CREATE DATABASE "{name}""#).as_str())
        .await
        .expect("create the test database");
    let (base, _) = admin_url
        .rsplit_once('/')
        .expect("MG_TEST_POSTGRES_URL looks like postgres://user:pass@host:port/db");
    format!("{base}/{name}")
}

/// A stand-in for `app/dist`: the server tests check serving rules, not the app itself.
fn write_fake_build(dir: &std::path::Path) {
    std::fs::create_dir_all(dir.join("assets")).expect("create dist");
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><title>mg test build</title><div id=\"root\"></div>",
    )
    .expect("write index.html");
    std::fs::write(dir.join("assets/app-3f9a1c.js"), "console.log('app')").expect("write asset");
}

/// Declares one test per backend: `mod name { on_sqlite, on_postgres }`.
macro_rules! on_both_backends {
    ($name:ident, $scenario:path) => {
        mod $name {
            use super::*;

            #[tokio::test]
            async fn on_sqlite() {
                let app = crate::helpers::spawn_app(crate::helpers::TestBackend::Sqlite)
                    .await
                    .expect("SQLite always runs");
                $scenario(app).await;
            }

            #[tokio::test]
            async fn on_postgres() {
                if let Some(app) =
                    crate::helpers::spawn_app(crate::helpers::TestBackend::Postgres).await
                {
                    $scenario(app).await;
                }
            }
        }
    };
}
