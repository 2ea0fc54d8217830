//! The operators' writes (open, update, schedule, edit an update, set a component's status) are
//! acknowledged only once committed: with the database refusing writes (SQLite on a full disk,
//! PostgreSQL read-only) each is a 201/200 that is stored, or a 503 JSON that stored nothing, not
//! even its log line. The operator signs in through the local identity
//! emulator, which gives the role to `IDENTITY_EMULATOR_OPERATORS`.

use serde_json::{json, Value};

use crate::{
    durability::acknowledged,
    emulator::{emulator_on, sign_in},
    helpers::TestApp,
    status_operators::incident_body,
};

const OPERATOR_EMAIL: &str = "Ops@Example.com";

fn operators_on(config: &mut mg_server::config::Config) {
    emulator_on(config);
    config.status.emulator_operators = vec![OPERATOR_EMAIL.to_lowercase()];
}

async fn session_of(app: &TestApp, email: &str) -> String {
    let jwt = sign_in(app, "github", &[("email", email), ("name", "Ops")]).await;
    jwt["sessionJwt"]
        .as_str()
        .expect("session token")
        .to_owned()
}

async fn no_acknowledged_operator_write_is_lost<B, R>(app: &TestApp, break_it: B, repair: R)
where
    B: AsyncFnOnce(),
    R: AsyncFnOnce(),
{
    let ops = session_of(app, OPERATOR_EMAIL).await;
    let someone = session_of(app, "someone@example.com").await;
    let view = app
        .client
        .get(format!("{}/api/status/operator", app.address));
    assert_eq!(
        view.try_clone()
            .expect("get")
            .bearer_auth(&ops)
            .send()
            .await
            .expect("answers")
            .status(),
        200
    );
    assert_eq!(
        view.bearer_auth(&someone)
            .send()
            .await
            .expect("answers")
            .status(),
        403
    );
    let opened = app
        .post_with_token("/api/status/incidents", &ops, &incident_body("Before"))
        .await;
    assert_eq!(opened.status(), 201);
    let id = opened.json::<Value>().await.expect("JSON")["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let update_path = format!("/api/status/incidents/{id}/updates");
    let now = mg_server::time::now_ms();
    let at = mg_server::time::rfc3339;

    let patch = |path: String, body: Value| {
        let request = app.client.patch(format!("{}{path}", app.address));
        request.bearer_auth(&ops).json(&body).send()
    };

    break_it().await;
    // How many of each write were acknowledged.
    let (mut incidents, mut windows, mut updates, mut edits, mut settings) = (0, 0, 0, 0, 0);
    // Three rounds of five writes: with the one before and the one after, within the operator's
    // burst of 20 (a refused write counts too).
    const ROUNDS: usize = 3;
    for i in 0..ROUNDS {
        let edit = patch(
            format!("{update_path}/1"),
            json!({"body": format!("Corrected {i}")}),
        )
        .await
        .expect("answers");
        edits += usize::from(acknowledged(edit, "edit an update", &[200]).await);
        let status = ["degraded_performance", "major_outage"][i % 2];
        let set = patch(
            "/api/status/components/db".into(),
            json!({"status": status}),
        )
        .await
        .expect("answers");
        settings += usize::from(acknowledged(set, "set a component's status", &[200]).await);
        let open = app
            .post_with_token(
                "/api/status/incidents",
                &ops,
                &incident_body(&format!("During {i}")),
            )
            .await;
        incidents += usize::from(acknowledged(open, "open an incident", &[200, 201]).await);
        let update = app
            .post_with_token(
                &update_path,
                &ops,
                &json!({"status": "identified", "body": format!("Update {i}")}),
            )
            .await;
        updates += usize::from(acknowledged(update, "add an update", &[200, 201]).await);
        let window = json!({"title": format!("Window {i}"), "components": ["db"],
            "starts_at": at(now + 3_600_000), "ends_at": at(now + 7_200_000), "body": "Planned."});
        let schedule = app
            .post_with_token("/api/status/maintenances", &ops, &window)
            .await;
        windows += usize::from(acknowledged(schedule, "schedule a window", &[200, 201]).await);
    }
    repair().await;
    let refused = 5 * ROUNDS - (incidents + windows + updates + edits + settings);
    assert!(
        refused > 0,
        "the fault refused no write: the test proves nothing"
    );

    // What was acknowledged is there, in the table and on the page; what was refused left nothing.
    assert_eq!(
        app.count_rows("status_notice_updates").await,
        1 + (incidents + windows + updates) as i64
    );
    assert_eq!(
        app.count_rows("status_update_revisions").await,
        edits as i64
    );
    assert_eq!(
        app.count_rows("status_component_declarations").await,
        settings as i64
    );
    app.status.check_now(mg_server::time::now_ms()).await;
    let summary: Value = app
        .get("/api/v2/summary.json")
        .await
        .json()
        .await
        .expect("JSON");
    assert_eq!(
        summary["incidents"].as_array().map(Vec::len),
        Some(1 + incidents),
        "{summary}"
    );
    assert_eq!(
        summary["scheduled_maintenances"].as_array().map(Vec::len),
        Some(windows)
    );
    // And writes work again.
    let after = app
        .post_with_token(
            &update_path,
            &ops,
            &json!({"status": "resolved", "body": "Over."}),
        )
        .await;
    assert_eq!(after.status(), 200);
}

under_write_faults!(
    a_full_disk_loses_no_acknowledged_operator_write,
    a_read_only_postgres_loses_no_acknowledged_operator_write,
    no_acknowledged_operator_write_is_lost,
    operators_on
);
