//! `/health`, `/api/health` and `/db-health`.

use crate::helpers::{header, TestApp};
use serde_json::Value;

async fn health_answers_200_json_on_both_paths(app: TestApp) {
    for path in ["/health", "/api/health"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        let body: Value = response.json().await.expect("JSON body");
        assert_eq!(body["status"], "ok", "{path}");
    }
}
on_sqlite!(health_answers_200_json_on_both_paths);

async fn db_health_reports_a_live_database(app: TestApp) {
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
on_both_backends!(db_health_reports_a_live_database);

async fn db_health_reports_a_dead_database(app: TestApp) {
    take_database_away(&app).await;
    let response = once_unavailable(|| app.get("/db-health"))
        .await
        .expect("db-health must report a dead database");
    let body: Value = response.json().await.expect("JSON body");
    assert_eq!(body["code"], "database_unavailable");
    // Refused at once, or (its file gone on a loaded machine) timed out after the probe's 1 s.
    let error = body["error"].as_str().expect("error");
    assert!(
        error == "The database did not answer."
            || error == "The database did not answer within 1 s.",
        "{error}"
    );
    // Liveness does not depend on the database.
    assert_eq!(app.get("/health").await.status(), 200);
}
on_both_backends!(db_health_reports_a_dead_database);

/// Asks with `ask` until the server answers 503, the database's outage (connections already open
/// may still answer from cache for a moment), for three seconds at most; `None`: it never did.
pub async fn once_unavailable<Ask, Answer>(mut ask: Ask) -> Option<reqwest::Response>
where
    Ask: FnMut() -> Answer,
    Answer: std::future::Future<Output = reqwest::Response>,
{
    for _ in 0..30 {
        let response = ask().await;
        if response.status() == 503 {
            return Some(response);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    None
}

/// Takes the database away from under the running server, each engine in its own way.
pub async fn take_database_away(app: &TestApp) {
    if app.database_url.starts_with("sqlite") {
        let path = app
            .database_url
            .trim_start_matches("sqlite://")
            .split('?')
            .next()
            .expect("path")
            .to_owned();
        sabotage_sqlite(&path);
    } else {
        terminate_postgres_database(&app.database_url).await;
    }
}

/// Makes the database file unreadable garbage; the next query on a new connection fails.
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
    let (_, name) = url.rsplit_once('/').expect("url");
    crate::helpers::as_postgres_admin(&[format!(r#"DROP DATABASE "{name}" WITH (FORCE)"#)]).await;
}

async fn metrics_count_requests_and_latencies_per_route_in_prometheus_text(app: TestApp) {
    for _ in 0..3 {
        assert_eq!(app.get("/health").await.status(), 200);
    }
    assert_eq!(app.post("/api/wisdom").await.status(), 200);
    let response = app.get("/metrics").await;
    assert_eq!(response.status(), 200);
    assert!(header(&response, "content-type").starts_with("text/plain"));
    let text = response.text().await.expect("body");
    assert!(
        text.contains("mg_http_requests_total{method=\"GET\",route=\"/health\",status=\"200\"} 3"),
        "{text}"
    );
    assert!(text.contains(
        "mg_http_requests_total{method=\"POST\",route=\"/api/wisdom\",status=\"200\"} 1"
    ));
    assert!(
        text.contains("mg_http_request_duration_seconds_count{method=\"GET\",route=\"/health\"} 3")
    );
    assert!(text.contains("mg_db_pool_connections{state=\"idle\"}"));
}
on_both_backends!(metrics_count_requests_and_latencies_per_route_in_prometheus_text);
