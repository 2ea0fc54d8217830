//! The error shape: every failure is `{"error", "code"}` JSON with the right status.

use serde_json::Value;

use crate::helpers::{chunked_post, TestApp};

async fn error_body(response: reqwest::Response, status: u16, code: &str) -> Value {
    assert_eq!(response.status(), status);
    assert!(response.headers()["content-type"]
        .to_str()
        .expect("ascii")
        .starts_with("application/json"));
    let body: Value = response.json().await.expect("JSON body");
    assert_eq!(body["code"], code);
    assert!(body["error"].as_str().is_some_and(|m| !m.is_empty()));
    body
}

async fn wrong_methods_answer_405_json(app: TestApp) {
    let response = app.get("/api/wisdom").await;
    let body = error_body(response, 405, "method_not_allowed").await;
    assert_eq!(body["error"], "This address does not accept that method.");
    let response = app
        .client
        .delete(format!("{}/api/auth/current-user", app.address))
        .send()
        .await
        .expect("answer");
    error_body(response, 405, "method_not_allowed").await;
}
on_sqlite!(
    a_wrong_method_answers_405_json,
    wrong_methods_answer_405_json
);

async fn oversized_bodies_answer_413_json(app: TestApp) {
    let token = app.identity.session_token("big");
    let big = format!("{{\"name\": \"{}\"}}", "x".repeat(17 * 1024));
    let response = app
        .client
        .post(format!("{}/api/auth/update-profile", app.address))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body(big)
        .send()
        .await
        .expect("answer");
    error_body(response, 413, "payload_too_large").await;
    assert_eq!(app.count_rows("users").await, 0, "nothing stored");
}
on_both_backends!(
    a_body_over_16_kib_answers_413_json,
    oversized_bodies_answer_413_json
);

/// A body sent in chunks declares no length: the cap is met while reading it.
async fn chunked_bodies_over_the_cap_answer_413_json(app: TestApp) {
    let token = app.identity.session_token("chunked");
    let big = format!("{{\"name\": \"{}\"}}", "x".repeat(17 * 1024));
    let (status, body) =
        chunked_post(&app, "/api/auth/update-profile", &token, big.as_bytes()).await;
    assert_eq!(status, 413, "{body}");
    let body: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(body["code"], "payload_too_large", "{body}");
    assert_eq!(app.count_rows("users").await, 0, "nothing stored");
}
on_both_backends!(
    a_chunked_body_over_16_kib_answers_413_json,
    chunked_bodies_over_the_cap_answer_413_json
);

async fn non_json_bodies_answer_415_json(app: TestApp) {
    let token = app.identity.session_token("form");
    let response = app
        .client
        .post(format!("{}/api/auth/update-profile", app.address))
        .bearer_auth(&token)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("name=Ada")
        .send()
        .await
        .expect("answer");
    error_body(response, 415, "unsupported_media_type").await;
}
on_both_backends!(
    a_body_that_is_not_json_answers_415_json,
    non_json_bodies_answer_415_json
);

async fn malformed_json_answers_400_json(app: TestApp) {
    let token = app.identity.session_token("typo");
    let response = app
        .client
        .post(format!("{}/api/auth/update-profile", app.address))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body("{\"name\": \"Ada\"")
        .send()
        .await
        .expect("answer");
    let body = error_body(response, 400, "bad_request").await;
    assert_eq!(body["error"], "The request body is not valid JSON.");
}
on_both_backends!(
    malformed_json_answers_400_json,
    malformed_json_answers_400_json
);

async fn database_routes_answer_503_json_when_the_database_is_gone(app: TestApp) {
    let token = app.identity.session_token("outage");
    assert_eq!(app.current_user(&token).await.status(), 200);
    crate::health::take_database_away(&app).await;
    let mut last = None;
    for _ in 0..30 {
        let response = app.current_user(&token).await;
        if response.status() == 503 {
            last = Some(response);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let response = last.expect("current-user answers 503 once the database is gone");
    error_body(response, 503, "database_unavailable").await;
    assert_eq!(app.get("/health").await.status(), 200);
}
on_both_backends!(
    database_routes_answer_503_json_when_the_database_is_gone,
    database_routes_answer_503_json_when_the_database_is_gone
);
