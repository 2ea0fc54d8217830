//! Deleting an account leaves no row that names the person, in any table: neither a user's own rows
//! nor, for a status operator, the notices, corrections, component statuses and webhooks they wrote
//! (those stay, naming "former operator"). Read straight from every table of the database, on both engines.

use serde_json::json;

use crate::helpers::TestApp;
use crate::status_operators::{incident_body, token_with_roles};
use crate::status_webhooks::{allow_private, call, declare};

const SESSION: &str = "ops-laptop-0123456789abcdef";

async fn an_operator_deletes_their_account(app: TestApp) {
    let token = token_with_roles(&app, "ops-leaving", &["status-operator"]);
    let send = |path: &'static str, body: serde_json::Value| {
        let (app, token) = (&app, &token);
        async move {
            app.post_in_session(path, token, SESSION, &body)
                .await
                .status()
                .as_u16()
        }
    };
    assert_eq!(send("/api/auth/current-user", json!({})).await, 200);
    assert_eq!(
        send("/api/status/incidents", incident_body("Queue delays")).await,
        201
    );
    let webhook = json!({"url": "http://127.0.0.1:9/ops", "format": "json", "name": "Ops"});
    assert_eq!(send("/api/status/webhooks", webhook).await, 201);
    // A correction of the incident's first update and a component's own status.
    let (_, status) = call(&app, "GET", "/api/status", None, &json!(null)).await;
    let id = status["notices"][0]["id"].as_str().expect("id").to_owned();
    let fix = json!({"body": "Queues are slow."});
    let path = format!("/api/status/incidents/{id}/updates/1");
    assert_eq!(call(&app, "PATCH", &path, Some(&token), &fix).await.0, 200);
    let degraded = declare(&app, &token, "db", json!("degraded_performance")).await;
    assert_eq!(degraded.0, 200);
    let before: Vec<String> = app
        .tables_naming("ops-leaving")
        .await
        .into_iter()
        .map(|(table, _)| table)
        .collect();
    for table in [
        "users",
        "status_notice_updates",
        "status_webhooks",
        "status_update_revisions",
        "status_component_declarations",
    ] {
        assert!(before.iter().any(|t| t == table), "{table} in {before:?}");
    }

    assert_eq!(
        send("/api/auth/delete-account", json!({"confirm": true})).await,
        200
    );
    assert_eq!(app.tables_naming("ops-leaving").await, vec![]);
    // What they wrote stays, under no name.
    assert_eq!(
        app.count_rows("status_notice_updates WHERE author = 'former operator'")
            .await,
        1
    );
    assert_eq!(
        app.count_rows("status_webhooks WHERE created_by = 'former operator'")
            .await,
        1
    );
    for table in ["status_update_revisions", "status_component_declarations"] {
        let unnamed = format!("{table} WHERE author = 'former operator'");
        assert_eq!(app.count_rows(&unnamed).await, 1, "{table}");
    }
    let status: serde_json::Value = app.get("/api/status").await.json().await.expect("JSON");
    assert_eq!(status["notices"][0]["title"], "Queue delays", "{status}");
}
on_both_backends!(
    deleting_an_operators_account_leaves_their_status_records_naming_no_one,
    an_operator_deletes_their_account,
    allow_private
);
