//! `/health`, `/api/health` and `/db-health`.

use crate::helpers::TestApp;
use serde_json::Value;

async fn health_answers_200_json(app: TestApp) {
    for path in ["/health", "/api/health"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        let body: Value = response.json().await.expect("JSON body");
        assert_eq!(body["status"], "ok", "{path}");
    }
}
on_both_backends!(
    health_answers_200_json_on_both_paths,
    health_answers_200_json
);

async fn db_health_is_200_when_the_database_answers(app: TestApp) {
    let response = app.get("/db-health").await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.expect("JSON body");
    assert_eq!(body["status"], "ok");
    let expected = if app.database_url.starts_with("sqlite") {
        "sqlite"
    } else {
        "postgres"
    };
    assert_eq!(body["database"], expected);
    assert!(body["latency_ms"].as_f64().expect("latency") >= 0.0);
}
on_both_backends!(
    db_health_reports_a_live_database,
    db_health_is_200_when_the_database_answers
);

async fn db_health_is_503_json_when_the_database_is_gone(app: TestApp) {
    // Take the database away from under the running server, each engine in its own way.
    if app.database_url.starts_with("sqlite") {
        // Make the database file unreadable garbage; the next SELECT 1 on a new connection fails.
        let path = app
            .database_url
            .trim_start_matches("sqlite://")
            .split('?')
            .next()
            .expect("path")
            .to_owned();
        sabotage_sqlite(&path);
        // Connections already open may still answer from cache: ask until the failure shows,
        // bounded to a few seconds.
        let mut last = 0;
        for _ in 0..30 {
            last = app.get("/db-health").await.status().as_u16();
            if last == 503 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(last, 503, "db-health must report a broken SQLite database");
    } else {
        terminate_postgres_database(&app.database_url).await;
        let response = app.get("/db-health").await;
        assert_eq!(response.status(), 503);
        let body: Value = response.json().await.expect("JSON body");
        assert_eq!(body["code"], "database_unavailable");
        assert_eq!(body["error"], "The database did not answer.");
    }
    // Liveness does not depend on the database.
    assert_eq!(app.get("/health").await.status(), 200);
}
on_both_backends!(
    db_health_reports_a_dead_database,
    db_health_is_503_json_when_the_database_is_gone
);

fn sabotage_sqlite(path: &str) {
    for suffix in ["", "-wal", "-shm"] {
        let file = format!("{path}{suffix}");
        if std::path::Path::new(&file).exists() {
            std::fs::write(&file, vec![0xA5u8; 8192]).expect("overwrite database file");
        }
    }
}

/// Drops the test database while the server holds connections to it.
async fn terminate_postgres_database(url: &str) {
    use sqlx::{Connection, Executor, PgConnection};
    let (_, name) = url.rsplit_once('/').expect("url");
    let admin = crate::helpers::postgres_admin_url().expect("admin url");
    let mut conn = PgConnection::connect(&admin)
        .await
        .expect("admin connection");
    conn.execute(format!(r#"DROP DATABASE "{name}" WITH (FORCE)"#).as_str())
        .await
        .expect("drop test database");
}
