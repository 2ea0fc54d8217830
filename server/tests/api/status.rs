//! The status answers: `/api/status`, history, Statuspage shapes, badges, the Atom feed,
//! incidents, ETag/304 and bad queries. Rounds of checks run at chosen times through `check_now`.

use std::sync::{
    atomic::{AtomicU16, Ordering},
    Arc,
};

use axum::{extract::State, http::StatusCode, routing::get, Router};
use mg_server::status::StatusConfig;
use serde_json::Value;

use crate::helpers::{header, serve, spawn_app_with, TestApp, TestBackend};

/// 2026-11-20T12:00:00Z: rounds in these tests happen at fixed times after it.
pub const T0: i64 = 1_795_176_000_000;
pub const INTERVAL: i64 = 30_000;

/// A stand-in Telekinesis queue answering whatever status the test sets.
pub struct QueueDouble {
    pub url: String,
    status: Arc<AtomicU16>,
}

impl QueueDouble {
    pub async fn start() -> Self {
        let status = Arc::new(AtomicU16::new(200));
        let app = Router::new()
            .route(
                "/health",
                get(|State(s): State<Arc<AtomicU16>>| async move {
                    StatusCode::from_u16(s.load(Ordering::SeqCst)).unwrap_or(StatusCode::OK)
                }),
            )
            .with_state(status.clone());
        let url = format!("{}/health", serve(app).await);
        Self { url, status }
    }

    pub fn answer(&self, status: u16) {
        self.status.store(status, Ordering::SeqCst);
    }

    /// A server on `backend` checking this queue as instance "first" (`None` where the backend is
    /// not available).
    pub async fn spawn_app(&self, backend: TestBackend) -> Option<TestApp> {
        let url = self.url.clone();
        spawn_app_with(backend, move |config| {
            config.status = StatusConfig {
                queue_url: Some(url),
                ..StatusConfig::manual("first")
            };
        })
        .await
    }
}

pub async fn json(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The `summary.updated_at` of a status page answer: what a later `?since=` names.
pub fn page_updated_at(page: &Value) -> String {
    page["summary"]["updated_at"]
        .as_str()
        .expect("updated_at")
        .to_owned()
}

pub fn component<'a>(status: &'a Value, id: &str) -> &'a Value {
    member(status, "components", "id", id)
}

/// The item of `value[list]` whose `key` is `wanted`.
pub fn member<'a>(value: &'a Value, list: &str, key: &str, wanted: &str) -> &'a Value {
    value[list]
        .as_array()
        .unwrap_or_else(|| panic!("{list} in {value}"))
        .iter()
        .find(|item| item[key] == wanted)
        .unwrap_or_else(|| panic!("{list} with {key} {wanted} in {value}"))
}

async fn status_shows_each_component_with_uptime_latency_and_viewpoint(app: TestApp) {
    // Before any round the components are known but not yet checked.
    let (code, before) = json(app.get("/api/status").await).await;
    assert_eq!(code, 200);
    assert_eq!(component(&before, "db")["state"], "unknown");

    for i in 0..3 {
        app.status.check_now(T0 + i * INTERVAL).await;
    }
    let response = app.get("/api/status").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    assert!(header(&response, "cache-control").contains("max-age"));
    let (_, status) = json(response).await;
    assert_eq!(status["state"], "operational");
    assert_eq!(status["instance_id"], "first");
    assert_eq!(status["check_interval_seconds"], 30);
    let ids: Vec<&str> = status["components"]
        .as_array()
        .expect("components")
        .iter()
        .map(|c| c["id"].as_str().expect("id"))
        .collect();
    // No queue URL configured: no queue component.
    assert_eq!(ids, ["api", "db"]);
    for id in ids {
        let c = component(&status, id);
        assert_eq!(c["state"], "operational", "{c}");
        assert_eq!(c["uptime"]["24h"], 100.0);
        assert_eq!(c["uptime"]["7d"], 100.0);
        assert_eq!(c["uptime"]["90d"], 100.0);
        assert!(c["latency_24h"]["p50_ms"].as_f64().expect("p50") >= 0.0);
        assert!(c["latency_24h"]["p95_ms"].as_f64().expect("p95") >= 0.0);
        assert_eq!(c["last_checked_at"], "2026-11-20T12:01:00.000Z");
        assert_eq!(c["viewpoints"][0]["instance_id"], "first");
        assert_eq!(c["viewpoints"][0]["fresh"], true);
    }
    assert_eq!(status["viewpoints"][0]["instance_id"], "first");
    assert_eq!(status["open_incidents"], Value::Array(vec![]));
    assert_eq!(app.count_rows("status_checks").await, 6);
}
on_both_backends!(status_shows_each_component_with_uptime_latency_and_viewpoint);

async fn unchanged_polls_get_304_and_a_new_round_a_new_etag(app: TestApp) {
    app.status.check_now(T0).await;
    for path in [
        "/api/status",
        "/api/status/history?component=db&range=7d",
        "/api/v2/summary.json",
        "/api/v2/status.json",
        "/status/badge/db.svg",
        "/status/feed.atom",
    ] {
        let first = app.get(path).await;
        assert_eq!(first.status(), 200, "{path}");
        // Public data: any site or tool may read it (no credentials involved).
        assert_eq!(
            first.headers()["access-control-allow-origin"],
            "*",
            "{path}"
        );
        let etag = header(&first, "etag").to_owned();
        assert!(
            etag.starts_with('"') && etag.ends_with('"'),
            "strong ETag: {etag}"
        );
        let again = app
            .get_with(path, &[("if-none-match", etag.as_str())])
            .await;
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(again.headers()["etag"], etag.as_str());
        assert!(again.bytes().await.expect("body").is_empty());
        let stale = app.get_with(path, &[("if-none-match", "\"0000\"")]).await;
        assert_eq!(stale.status(), 200, "{path}");
    }
    // A new round changes the answer, so the old ETag no longer matches.
    let etag = app.get("/api/status").await.headers()["etag"].clone();
    app.status.check_now(T0 + INTERVAL).await;
    let after = app
        .client
        .get(format!("{}/api/status", app.address))
        .header("if-none-match", etag.clone())
        .send()
        .await
        .expect("answer");
    assert_eq!(after.status(), 200);
    assert_ne!(after.headers()["etag"], etag);
}
on_both_backends!(unchanged_polls_get_304_and_a_new_round_a_new_etag);

async fn history_gives_chart_series_and_refuses_bad_queries_with_400_json(app: TestApp) {
    for i in 0..4 {
        app.status.check_now(T0 + i * INTERVAL).await;
    }
    for (range, points, bucket) in [("24h", 96, 900), ("7d", 168, 3600), ("90d", 90, 86_400)] {
        let (code, body) = json(
            app.get(&format!("/api/status/history?component=api&range={range}"))
                .await,
        )
        .await;
        assert_eq!(code, 200, "{range}: {body}");
        assert_eq!(body["component"], "api");
        assert_eq!(body["range"], range);
        assert_eq!(body["bucket_seconds"], bucket);
        let series = body["points"].as_array().expect("points");
        assert_eq!(series.len(), points, "{range}");
        let last = series.last().expect("a point");
        assert_eq!(last["checks"], 4, "{range}: {last}");
        assert_eq!(last["uptime"], 100.0);
        assert!(last["latency_p95_ms"].is_number());
        assert_eq!(series[0]["checks"], 0);
        assert_eq!(series[0]["uptime"], Value::Null);
        assert_eq!(last["incidents"].is_number(), range == "90d");
    }
    let (code, body) = json(app.get("/api/status/history?component=db").await).await;
    assert_eq!((code, body["range"].as_str()), (200, Some("24h")));

    let long = format!("/api/status/history?component={}", "a".repeat(300));
    for (path, code) in [
        ("/api/status/history", "invalid_field"),
        (
            "/api/status/history?component=nope&range=24h",
            "invalid_field",
        ),
        (
            "/api/status/history?component=%3Cscript%3E",
            "invalid_field",
        ),
        ("/api/status/history?component=db&range=1y", "invalid_field"),
        ("/api/status/history?component=db&range=", "invalid_field"),
        ("/api/status/history?component=db&extra=1", "bad_request"),
        (
            "/api/status/history?component=db&component=api",
            "bad_request",
        ),
        (long.as_str(), "bad_request"),
    ] {
        let (status, body) = json(app.get(path).await).await;
        assert_eq!(status, 400, "{path}: {body}");
        assert_eq!(body["code"], code, "{path}");
        let message = body["error"].as_str().expect("a message");
        assert!(!message.contains('<'), "input is not echoed: {message}");
    }
}
on_both_backends!(history_gives_chart_series_and_refuses_bad_queries_with_400_json);

async fn statuspage_endpoints_answer_in_atlassian_statuspages_shape(app: TestApp) {
    app.status.check_now(T0).await;
    let (code, summary) = json(app.get("/api/v2/summary.json").await).await;
    assert_eq!(code, 200);
    assert_eq!(summary["page"]["name"], "mg-web");
    assert_eq!(summary["page"]["time_zone"], "Etc/UTC");
    assert_eq!(summary["page"]["updated_at"], "2026-11-20T12:00:00.000Z");
    assert_eq!(summary["status"]["indicator"], "none");
    assert_eq!(summary["status"]["description"], "All Systems Operational");
    let components = summary["components"].as_array().expect("components");
    assert_eq!(components.len(), 2);
    assert_eq!(components[1]["name"], "Database");
    assert_eq!(components[1]["status"], "operational");
    assert_eq!(components[1]["position"], 2);
    assert_eq!(summary["incidents"], Value::Array(vec![]));
    assert_eq!(summary["scheduled_maintenances"], Value::Array(vec![]));
    let (code, status) = json(app.get("/api/v2/status.json").await).await;
    assert_eq!(code, 200);
    assert_eq!(status["status"], summary["status"]);
    assert_eq!(status["page"], summary["page"]);
    assert!(status.get("components").is_none());
}
on_both_backends!(statuspage_endpoints_answer_in_atlassian_statuspages_shape);

async fn badges(app: TestApp) {
    app.status.check_now(T0).await;
    let response = app.get("/status/badge/db.svg").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/svg+xml");
    assert!(header(&response, "cache-control").starts_with("public"));
    let svg = response.text().await.expect("body");
    let doc = roxmltree::Document::parse(&svg).expect("the badge is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert!(svg.contains("<title>Database: up 100%</title>"), "{svg}");
    assert!(svg.contains("#2e7d32"), "green when up");
    for path in [
        "/status/badge/nope.svg",
        "/status/badge/db",
        "/status/badge/db.png",
    ] {
        let (status, body) = json(app.get(path).await).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(body["code"], "not_found", "{path}");
    }
}
on_both_backends!(
    badges_are_svg_with_name_state_and_uptime_and_unknown_ones_404,
    badges
);

async fn the_queue_opens_and_closes_an_incident(queue: &QueueDouble, app: &TestApp) {
    queue.answer(200);
    app.status.check_now(T0).await;
    queue.answer(503);
    app.status.check_now(T0 + INTERVAL).await;
    // One failed check: down, but not yet an incident.
    let (_, status) = json(app.get("/api/status").await).await;
    let q = component(&status, "queue");
    assert_eq!(q["name"], "Telekinesis queue");
    assert_eq!(q["state"], "down");
    assert_eq!(q["viewpoints"][0]["error"], "The queue answered HTTP 503.");
    assert_eq!(status["open_incidents"], Value::Array(vec![]));
    assert_eq!(app.count_rows("status_incidents").await, 0);

    app.status.check_now(T0 + 2 * INTERVAL).await;
    let (_, status) = json(app.get("/api/status").await).await;
    let open = &status["open_incidents"][0];
    assert_eq!(open["component"], "queue");
    assert_eq!(open["started_at"], "2026-11-20T12:00:30.000Z");
    assert_eq!(open["ended_at"], Value::Null);
    assert_eq!(open["first_error"], "The queue answered HTTP 503.");
    assert_eq!(open["viewpoints"][0], "first");
    assert_eq!(status["state"], "degraded");
    let (_, summary) = json(app.get("/api/v2/summary.json").await).await;
    assert_eq!(summary["status"]["indicator"], "major");
    assert_eq!(summary["components"][2]["status"], "major_outage");
    assert_eq!(summary["incidents"][0]["status"], "investigating");
    assert_eq!(
        summary["incidents"][0]["name"],
        "Telekinesis queue unavailable"
    );
    let badge = app.get_text("/status/badge/queue.svg").await;
    assert!(badge.contains("Telekinesis queue: down"), "{badge}");

    queue.answer(200);
    app.status.check_now(T0 + 3 * INTERVAL).await;
    let (_, status) = json(app.get("/api/status").await).await;
    assert_eq!(status["open_incidents"], Value::Array(vec![]));
    let ended = &status["recent_incidents"][0];
    assert_eq!(ended["started_at"], "2026-11-20T12:00:30.000Z");
    assert_eq!(ended["ended_at"], "2026-11-20T12:01:30.000Z");
    assert_eq!(app.count_rows("status_incidents").await, 1);
    let (_, day) = json(
        app.get("/api/status/history?component=queue&range=90d")
            .await,
    )
    .await;
    let today = day["points"]
        .as_array()
        .expect("points")
        .last()
        .cloned()
        .expect("today");
    assert_eq!(today["incidents"], 1);
    assert_eq!(
        (today["checks"].as_i64(), today["failures"].as_i64()),
        (Some(4), Some(2))
    );
    assert_eq!(today["uptime"], 50.0);

    let feed = app.get("/status/feed.atom").await;
    assert_eq!(
        feed.headers()["content-type"],
        "application/atom+xml; charset=utf-8"
    );
    let xml = feed.text().await.expect("feed");
    let doc = roxmltree::Document::parse(&xml).expect("the feed is well-formed XML");
    let root = doc.root_element();
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2005/Atom")
    );
    assert_eq!(root.tag_name().name(), "feed");
    for required in ["id", "title", "updated"] {
        assert!(
            root.children().any(|n| n.tag_name().name() == required),
            "feed needs <{required}>"
        );
    }
    let entries: Vec<_> = root
        .children()
        .filter(|n| n.tag_name().name() == "entry")
        .collect();
    assert_eq!(entries.len(), 1);
    let text_of = |name: &str| {
        entries[0]
            .children()
            .find(|n| n.tag_name().name() == name)
            .and_then(|n| n.text())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(
        text_of("title"),
        "Telekinesis queue was unavailable (resolved)"
    );
    assert_eq!(text_of("updated"), "2026-11-20T12:01:30.000Z");
    assert!(text_of("summary").contains("The queue answered HTTP 503."));
}

async fn queue_incident(backend: TestBackend) {
    let queue = QueueDouble::start().await;
    let Some(app) = queue.spawn_app(backend).await else {
        return;
    };
    the_queue_opens_and_closes_an_incident(&queue, &app).await;
    crate::helpers::drop_postgres_database(&app.database_url).await;
}

#[tokio::test]
async fn two_failed_queue_checks_open_an_incident_and_a_healthy_one_closes_it_on_sqlite() {
    queue_incident(crate::helpers::TestBackend::Sqlite).await;
}

#[tokio::test]
async fn two_failed_queue_checks_open_an_incident_and_a_healthy_one_closes_it_on_postgres() {
    queue_incident(crate::helpers::TestBackend::Postgres).await;
}

async fn status_routes_are_server_routes_with_bounded_metric_labels(app: TestApp) {
    app.status.check_now(T0).await;
    for path in [
        "/api/status",
        "/status/badge/db.svg",
        "/status/badge/nope.svg",
    ] {
        app.get(path).await;
    }
    let text = app.get_text("/metrics").await;
    assert!(
        text.contains(r#"route="/api/status",status="200"} 1"#),
        "{text}"
    );
    assert!(text.contains(r#"route="/status/badge/{file}",status="200"} 1"#));
    assert!(text.contains(r#"route="/status/badge/{file}",status="404"} 1"#));
    // A wrong method is the API's 405, not the app's page.
    let response = app.post("/api/status").await;
    assert_eq!(response.status(), 405);
}
on_both_backends!(status_routes_are_server_routes_with_bounded_metric_labels);

async fn the_server_checks_on_its_own(app: TestApp) {
    // With the schedule on, the first round runs at start, without anyone asking.
    for _ in 0..100 {
        let (_, status) = json(app.get("/api/status").await).await;
        if component(&status, "db")["state"] == "operational" {
            assert_eq!(component(&status, "api")["state"], "operational");
            assert!(app.count_rows("status_checks").await >= 2);
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no round of checks within 5 s of start");
}
on_both_backends!(
    the_server_runs_its_first_round_of_checks_at_start,
    the_server_checks_on_its_own,
    |config: &mut mg_server::config::Config| config.status.scheduler = true
);

async fn the_history_is_sent_gzipped_to_a_client_that_accepts_it(app: TestApp) {
    for i in 0..4 {
        app.status.check_now(T0 + i * INTERVAL).await;
    }
    let path = "/api/status/history?component=api&range=90d";
    let plain = app.get(path).await.bytes().await.expect("plain body");
    let response = app
        .get_with(path, &[("accept-encoding", "gzip, deflate")])
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-encoding"], "gzip");
    assert_eq!(response.headers()["vary"], "accept-encoding");
    let etag = header(&response, "etag").to_owned();
    assert!(etag.ends_with("-gz\""), "its own strong tag: {etag}");
    let compressed = response.bytes().await.expect("gzip body");
    assert!(
        compressed.len() * 4 < plain.len(),
        "{} gzip bytes for {} plain",
        compressed.len(),
        plain.len()
    );
    let mut decoded = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&compressed[..]),
        &mut decoded,
    )
    .expect("valid gzip");
    assert_eq!(decoded, plain);
    // Revalidating with the gzip copy's tag gets 304, like the plain one's.
    let again = app
        .get_with(
            path,
            &[
                ("accept-encoding", "gzip"),
                ("if-none-match", etag.as_str()),
            ],
        )
        .await;
    assert_eq!(again.status(), 304);
    // A client that accepts Brotli gets the Brotli copy, with its own tag; one that accepts
    // nothing gets the plain body.
    let br = app
        .get_with(path, &[("accept-encoding", "gzip, deflate, br")])
        .await;
    assert_eq!(br.headers()["content-encoding"], "br");
    assert!(header(&br, "etag").ends_with("-br\""));
    let mut decoded = Vec::new();
    brotli::BrotliDecompress(&mut &br.bytes().await.expect("br body")[..], &mut decoded)
        .expect("valid brotli");
    assert_eq!(decoded, plain);
    let identity = app.get_with(path, &[("accept-encoding", "identity")]).await;
    assert!(identity.headers().get("content-encoding").is_none());
}
on_both_backends!(the_history_is_sent_gzipped_to_a_client_that_accepts_it);
