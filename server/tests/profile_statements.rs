//! Saving the display name costs one SQL statement: the update returns the stored row and the
//! active-session count. Statements are counted as sqlx reports them (its `sqlx::query` events).
//! SQLite runs statements on its own worker threads, so the counter is the process's global
//! subscriber: this file is its own test binary with one test, and nothing else runs beside it.

#[path = "api/helpers.rs"]
#[macro_use]
#[allow(dead_code, unused_macros)]
mod helpers;
#[path = "api/identity_double.rs"]
#[allow(dead_code)]
mod identity_double;

use std::sync::{
    atomic::{AtomicUsize, Ordering},
    Arc,
};

use serde_json::json;
use tracing_subscriber::{layer::Context, prelude::*, Layer};

use crate::helpers::{spawn_app_with, TestBackend};

/// Counts sqlx's statement events.
struct Statements(Arc<AtomicUsize>);

impl<S: tracing::Subscriber> Layer<S> for Statements {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        if event.metadata().target().starts_with("sqlx::query") {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
}

#[tokio::test]
async fn saving_the_display_name_is_one_statement() {
    // The webhooks' worker looks at its queue every second on its own: its statements are not the
    // request's.
    let app = spawn_app_with(TestBackend::Sqlite, |config| {
        config.status.webhooks_worker = false;
    })
    .await
    .expect("SQLite always runs");
    let count = Arc::new(AtomicUsize::new(0));
    tracing_subscriber::registry()
        .with(Statements(count.clone()))
        .try_init()
        .expect("the only subscriber of this test binary");

    let token = app.identity.session_token("user-statements");
    // The first request of a session records it (and creates the user).
    assert_eq!(app.current_user(&token).await.status(), 200);
    count.store(0, Ordering::SeqCst);
    let response = app
        .update_profile(&token, &json!({"name": "Ada Lovelace"}))
        .await;
    assert_eq!(response.status(), 200);
    let saved = count.load(Ordering::SeqCst);
    let body: serde_json::Value = response.json().await.expect("json");
    assert_eq!(body["data"]["name"], "Ada Lovelace");
    assert_eq!(body["data"]["activeSessions"], 1);
    assert!(body["data"]["updated_at"].is_string());
    eprintln!("statements per save: {saved}");

    // A save in a session not seen before also records the session (two statements) and counts
    // the sessions again (one).
    let other = app.identity.session_token("user-statements-2");
    count.store(0, Ordering::SeqCst);
    let response = app.update_profile(&other, &json!({"name": "Grace"})).await;
    assert_eq!(response.status(), 200);
    let first = count.load(Ordering::SeqCst);
    eprintln!("statements for a first save in a new session of a new user: {first}");
    assert_eq!(saved, 1, "one statement per save");
    assert!(first <= 4, "{first} statements");
}
