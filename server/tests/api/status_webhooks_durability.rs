//! Adding and deleting a webhook is acknowledged only once committed: with the database refusing
//! writes (SQLite on a full disk, PostgreSQL read-only) each is a 201/204 that is stored, or a 503
//! JSON that stored nothing.

use serde_json::json;

use crate::{
    durability::acknowledged,
    helpers::TestApp,
    status_operators::{get_as, operator},
    status_webhooks::{add_webhook, allow_private},
};

async fn live_webhooks(app: &TestApp) -> i64 {
    let (_, list) = get_as(app, &operator(app), "/api/status/webhooks").await;
    list["webhooks"].as_array().map_or(0, |w| w.len() as i64)
}

async fn no_acknowledged_webhook_change_is_lost<B, R>(app: &TestApp, break_it: B, repair: R)
where
    B: AsyncFnOnce(),
    R: AsyncFnOnce(),
{
    let ops = operator(app);
    let (first, _) = add_webhook(app, "http://127.0.0.1:9/first", "json").await;
    let delete_first = || {
        let url = format!("{}/api/status/webhooks/{first}", app.address);
        async {
            app.client
                .delete(url)
                .bearer_auth(&ops)
                .send()
                .await
                .expect("answers")
        }
    };
    break_it().await;
    let (mut added, mut deleted, mut refused) = (0, 0, 0);
    for i in 0..5 {
        let body = json!({"url": format!("http://127.0.0.1:9/{i}"), "format": "slack"});
        let response = app
            .post_with_token("/api/status/webhooks", &ops, &body)
            .await;
        if acknowledged(response, "add a webhook", &[201]).await {
            added += 1;
        } else {
            refused += 1;
        }
    }
    let response = delete_first().await;
    if acknowledged(response, "delete a webhook", &[204]).await {
        deleted += 1;
    } else {
        refused += 1;
    }
    repair().await;
    assert!(
        refused > 0,
        "the fault refused no write: the test proves nothing"
    );
    assert_eq!(live_webhooks(app).await, 1 + added - deleted);
    // And writes work again.
    let response = delete_first().await;
    assert_eq!(response.status(), if deleted == 1 { 404 } else { 204 });
}

under_write_faults!(
    a_full_disk_loses_no_acknowledged_webhook_change,
    a_read_only_postgres_loses_no_acknowledged_webhook_change,
    no_acknowledged_webhook_change_is_lost,
    allow_private
);
