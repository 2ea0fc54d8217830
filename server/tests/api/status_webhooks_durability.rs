//! Adding and deleting a webhook is acknowledged only once committed: with the database refusing
//! writes (SQLite on a full disk, PostgreSQL read-only) each is a 201/204 that is stored, or a 503
//! JSON that stored nothing.

use serde_json::json;

use crate::{
    durability::{acknowledged, postgres_read_only, SmallDisk},
    helpers::{spawn_app_with, TestApp, TestBackend},
    status_operators::operator,
    status_webhooks::{add_webhook, allow_private},
};

async fn live_webhooks(app: &TestApp) -> i64 {
    let (_, list) = crate::status_webhooks::call(
        app,
        "GET",
        "/api/status/webhooks",
        Some(&operator(app)),
        &serde_json::Value::Null,
    )
    .await;
    list["webhooks"].as_array().map_or(0, |w| w.len() as i64)
}

async fn no_acknowledged_webhook_change_is_lost<B, R>(app: &TestApp, break_it: B, repair: R)
where
    B: AsyncFnOnce(),
    R: AsyncFnOnce(),
{
    let ops = operator(app);
    let (first, _) = add_webhook(app, "http://127.0.0.1:9/first", "json").await;
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
    let response = app
        .client
        .delete(format!("{}/api/status/webhooks/{first}", app.address))
        .bearer_auth(&ops)
        .send()
        .await
        .expect("answers");
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
    let response = app
        .client
        .delete(format!("{}/api/status/webhooks/{first}", app.address))
        .bearer_auth(&ops)
        .send()
        .await
        .expect("answers");
    assert_eq!(response.status(), if deleted == 1 { 404 } else { 204 });
}

#[tokio::test]
async fn a_full_disk_loses_no_acknowledged_webhook_change() {
    let Some(disk) = SmallDisk::mount() else {
        return;
    };
    let url = format!("sqlite://{}?mode=rwc", disk.path().join("mg.db").display());
    let on_disk = url.clone();
    let mut app = spawn_app_with(TestBackend::Sqlite, move |config| {
        allow_private(config);
        config.database_url = on_disk;
    })
    .await
    .expect("SQLite always runs");
    app.database_url = url;
    no_acknowledged_webhook_change_is_lost(&app, async || disk.fill(), async || disk.free()).await;
}

#[tokio::test]
async fn a_read_only_postgres_loses_no_acknowledged_webhook_change() {
    let Some(app) = spawn_app_with(TestBackend::Postgres, allow_private).await else {
        return;
    };
    let url = app.database_url.clone();
    no_acknowledged_webhook_change_is_lost(
        &app,
        async || postgres_read_only(&url, true).await,
        async || postgres_read_only(&url, false).await,
    )
    .await;
    crate::helpers::drop_postgres_database(&url).await;
}
