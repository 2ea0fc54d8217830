//! The error shape: every failure is `{"error", "code"}` JSON with the right status. A body refused
//! before any handler (too large, not JSON) runs on SQLite alone; what reaches the database on both.

use mg_server::extract::BODY_LIMIT_BYTES;
use serde_json::Value;

use crate::helpers::{chunked_post, header, TestApp};

async fn error_body(response: reqwest::Response, status: u16, code: &str) -> Value {
    assert_eq!(response.status(), status);
    assert!(header(&response, "content-type").starts_with("application/json"));
    let body: Value = response.json().await.expect("JSON body");
    assert_eq!(body["code"], code);
    assert!(body["error"].as_str().is_some_and(|m| !m.is_empty()));
    body
}

/// POSTs `body`, as `content_type`, to update-profile with `token`.
async fn update_profile_raw(
    app: &TestApp,
    token: &str,
    content_type: &str,
    body: impl Into<reqwest::Body>,
) -> reqwest::Response {
    app.client
        .post(format!("{}/api/auth/update-profile", app.address))
        .bearer_auth(token)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .expect("answer")
}

async fn a_wrong_method_answers_405_json(app: TestApp) {
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
on_sqlite!(a_wrong_method_answers_405_json);

async fn a_body_over_the_cap_answers_413_json(app: TestApp) {
    let token = app.identity.session_token("big");
    let big = format!("{{\"name\": \"{}\"}}", "x".repeat(BODY_LIMIT_BYTES));
    let response = update_profile_raw(&app, &token, "application/json", big).await;
    error_body(response, 413, "payload_too_large").await;
    assert_eq!(app.count_rows("users").await, 0, "nothing stored");
}
on_sqlite!(a_body_over_the_cap_answers_413_json);

/// A body sent in chunks declares no length: the cap is met while reading it.
async fn a_chunked_body_over_the_cap_answers_413_json(app: TestApp) {
    let token = app.identity.session_token("chunked");
    let big = format!("{{\"name\": \"{}\"}}", "x".repeat(BODY_LIMIT_BYTES));
    let (status, body) =
        chunked_post(&app, "/api/auth/update-profile", &token, big.as_bytes()).await;
    assert_eq!(status, 413, "{body}");
    let body: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(body["code"], "payload_too_large", "{body}");
    assert_eq!(app.count_rows("users").await, 0, "nothing stored");
}
on_sqlite!(a_chunked_body_over_the_cap_answers_413_json);

/// The longest texts the operator fields allow, every character a `\u` escape pair (a character
/// outside the Basic Multilingual Plane, 12 bytes for one), fit the cap: the cap is computed from
/// the limits. Padded with JSON whitespace to exactly the cap the request is still taken; one byte
/// more is 413 and stores nothing.
async fn the_longest_valid_operator_request_fits_the_body_cap_and_one_byte_more_does_not(
    app: TestApp,
) {
    use mg_server::status::operator_limits::{MAX_BODY_CHARS, MAX_TITLE_CHARS};
    let grin = "\\ud83d\\ude00";
    let body = format!(
        "{{\"title\":\"{}\",\"impact\":\"critical\",\"components\":[\"api\",\"db\"],\
         \"status\":\"investigating\",\"body\":\"{}\",\"check_incident\":null,\
         \"component_status\":\"degraded_performance\"}}",
        grin.repeat(MAX_TITLE_CHARS),
        grin.repeat(MAX_BODY_CHARS)
    );
    assert!(body.len() > 48_000, "{} bytes", body.len());
    let ops = crate::status_operators::operator(&app);
    let open = |body: String| {
        app.client
            .post(format!("{}/api/status/incidents", app.address))
            .bearer_auth(&ops)
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let response = open(body.clone()).await.expect("answer");
    assert_eq!(
        response.status(),
        201,
        "{}",
        response.text().await.unwrap_or_default()
    );
    let padded = format!("{body}{}", " ".repeat(BODY_LIMIT_BYTES - body.len()));
    assert_eq!(padded.len(), BODY_LIMIT_BYTES);
    let response = open(padded.clone()).await.expect("answer");
    assert_eq!(response.status(), 201, "exactly the cap is taken");
    let notices = app.count_rows("status_notice_updates").await;
    let response = open(format!("{padded} ")).await.expect("answer");
    let refusal = error_body(response, 413, "payload_too_large").await;
    assert_eq!(
        refusal["error"],
        "The request body is too large (50 KiB at most)."
    );
    assert_eq!(
        app.count_rows("status_notice_updates").await,
        notices,
        "nothing stored"
    );
}
on_both_backends!(the_longest_valid_operator_request_fits_the_body_cap_and_one_byte_more_does_not);

async fn a_body_that_is_not_json_answers_415_json(app: TestApp) {
    let token = app.identity.session_token("form");
    let response = update_profile_raw(
        &app,
        &token,
        "application/x-www-form-urlencoded",
        "name=Ada",
    )
    .await;
    error_body(response, 415, "unsupported_media_type").await;
}
on_sqlite!(a_body_that_is_not_json_answers_415_json);

async fn malformed_json_answers_400_json(app: TestApp) {
    let token = app.identity.session_token("typo");
    let response = update_profile_raw(&app, &token, "application/json", "{\"name\": \"Ada\"").await;
    let body = error_body(response, 400, "bad_request").await;
    assert_eq!(body["error"], "The request body is not valid JSON.");
}
on_sqlite!(malformed_json_answers_400_json);

async fn database_routes_answer_503_json_when_the_database_is_gone(app: TestApp) {
    let token = app.identity.session_token("outage");
    assert_eq!(app.current_user(&token).await.status(), 200);
    crate::health::take_database_away(&app).await;
    let response = crate::health::once_unavailable(|| app.current_user(&token))
        .await
        .expect("current-user answers 503 once the database is gone");
    error_body(response, 503, "database_unavailable").await;
    assert_eq!(app.get("/health").await.status(), 200);
}
on_both_backends!(database_routes_answer_503_json_when_the_database_is_gone);
