//! Saving the display name costs one SQL statement: the update returns the stored row and the
//! active-session count. Statements are counted as sqlx reports them (its `sqlx::query` events).
//! SQLite runs statements on its own worker threads, so the counter is the process's global
//! subscriber: this file is its own test binary with one test, and nothing else runs beside it.
//! A connection the pool opens on the way (when the one just released has not yet gone back to
//! it, as happens on a busy machine) runs its setup PRAGMAs first: those are the pool's, not the
//! save's, and are not counted.

#[path = "api/helpers.rs"]
#[macro_use]
#[allow(dead_code, unused_macros)]
mod helpers;
#[path = "api/identity_double.rs"]
#[allow(dead_code)]
mod identity_double;

use std::sync::{Arc, Mutex};

use serde_json::json;
use tracing_subscriber::{layer::Context, prelude::*, Layer};

use crate::helpers::{spawn_app_with, TestBackend};

/// Keeps the summary of each of sqlx's statement events but a connection's setup PRAGMAs.
#[derive(Clone, Default)]
struct Statements(Arc<Mutex<Vec<String>>>);

impl Statements {
    /// The statements since the last call, forgetting them.
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut self.0.lock().expect("not poisoned"))
    }
}

impl<S: tracing::Subscriber> Layer<S> for Statements {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        if event.metadata().target().starts_with("sqlx::query") {
            let mut summary = Summary(String::new());
            event.record(&mut summary);
            if !summary.0.starts_with("PRAGMA ") {
                self.0.lock().expect("not poisoned").push(summary.0);
            }
        }
    }
}

/// The `summary` field of a statement event: its first words.
struct Summary(String);

impl tracing::field::Visit for Summary {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        if field.name() == "summary" {
            self.0 = format!("{value:?}").trim_matches('"').to_owned();
        }
    }

    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        if field.name() == "summary" {
            value.clone_into(&mut self.0);
        }
    }
}

#[tokio::test]
async fn saving_the_display_name_is_one_statement() {
    // A test server runs no worker of its own (no rounds, no webhooks' passes): every statement
    // recorded is the request's.
    let app = spawn_app_with(TestBackend::Sqlite, |_| {})
        .await
        .expect("SQLite always runs");
    let statements = Statements::default();
    tracing_subscriber::registry()
        .with(statements.clone())
        .try_init()
        .expect("the only subscriber of this test binary");

    let token = app.identity.session_token("user-statements");
    // The first request of a session records it (and creates the user).
    assert_eq!(app.current_user(&token).await.status(), 200);
    statements.take();
    let response = app
        .update_profile(&token, &json!({"name": "Ada Lovelace"}))
        .await;
    assert_eq!(response.status(), 200);
    let saved = statements.take();
    let body: serde_json::Value = response.json().await.expect("json");
    assert_eq!(body["data"]["name"], "Ada Lovelace");
    assert_eq!(body["data"]["activeSessions"], 1);
    assert!(body["data"]["updated_at"].is_string());
    eprintln!("statements per save: {saved:?}");

    // A save in a session not seen before also records the session (two statements) and counts
    // the sessions again (one).
    let other = app.identity.session_token("user-statements-2");
    statements.take();
    let response = app.update_profile(&other, &json!({"name": "Grace"})).await;
    assert_eq!(response.status(), 200);
    let first = statements.take();
    eprintln!("statements for a first save in a new session of a new user: {first:?}");
    assert_eq!(saved.len(), 1, "one statement per save: {saved:?}");
    assert!(first.len() <= 4, "{} statements: {first:?}", first.len());
}
