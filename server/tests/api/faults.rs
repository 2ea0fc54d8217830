//! Faults on real databases: two instances on one PostgreSQL, a PostgreSQL outage and recovery
//! without a restart, and kill -9 of the real binary after acknowledged updates.

use std::{process::Stdio, time::Duration};

use serde_json::{json, Value};

use crate::helpers::{as_postgres_admin, spawn_app_with, spawn_sibling, TestApp, TestBackend};

/// A second server on the same database and identity provider as `app`.
async fn second_instance(app: &TestApp) -> String {
    spawn_sibling(app, |config| {
        config.database_max_connections = Some(8);
        config.status = mg_server::status::StatusConfig::manual("second");
    })
    .await
}

async fn postgres_app() -> Option<TestApp> {
    spawn_app_with(TestBackend::Postgres, |config| {
        config.database_max_connections = Some(8)
    })
    .await
}

async fn set_name(client: &reqwest::Client, base: &str, token: &str, name: &str) -> u16 {
    client
        .post(format!("{base}/api/auth/update-profile"))
        .bearer_auth(token)
        .json(&json!({ "name": name }))
        .send()
        .await
        .map(|r| r.status().as_u16())
        .unwrap_or(0)
}

/// Sets the name as a well-behaved client does under overload: a 503 (no database connection free
/// within the pool's wait) or a 408 (the request's time ran out) is not an answer about the write,
/// so it tries again, a bounded number of times. What the test checks is that every update answered
/// 200 is stored, on both instances; how many first attempts a loaded machine refuses is capacity,
/// not durability.
async fn set_name_retrying(client: &reqwest::Client, base: &str, token: &str, name: &str) -> u16 {
    let mut status = 0;
    for attempt in 0..20u64 {
        status = set_name(client, base, token, name).await;
        if status != 503 && status != 408 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100 + 50 * attempt)).await;
    }
    status
}

async fn name_via(client: &reqwest::Client, base: &str, token: &str) -> Value {
    crate::helpers::current_user_at(client, base, token).await["name"].clone()
}

#[tokio::test]
async fn two_instances_on_one_postgres_share_users_and_lose_no_acknowledged_update() {
    let Some(app) = postgres_app().await else {
        return;
    };
    let other = second_instance(&app).await;
    let token = app.identity.session_token("shared");
    assert_eq!(
        set_name(&app.client, &app.address, &token, "Made on A").await,
        200
    );
    assert_eq!(name_via(&app.client, &other, &token).await, "Made on A");

    // 200 people update their names at once, spread over both instances.
    let tasks: Vec<_> = (0..200)
        .map(|i| {
            let client = app.client.clone();
            let base = if i % 2 == 0 {
                app.address.clone()
            } else {
                other.clone()
            };
            let token = app.identity.session_token(&format!("person-{i}"));
            tokio::spawn(async move {
                let status = set_name_retrying(&client, &base, &token, &format!("Name {i}")).await;
                (i, token, status)
            })
        })
        .collect();
    let mut acknowledged = Vec::new();
    let mut refused = Vec::new();
    for task in tasks {
        let (i, token, status) = task.await.expect("task");
        if status == 200 {
            acknowledged.push((i, token));
        } else {
            refused.push(status);
        }
    }
    assert_eq!(
        acknowledged.len(),
        200,
        "every update is acknowledged; refused: {refused:?}"
    );
    for (i, token) in &acknowledged {
        let base = if i % 2 == 0 { &other } else { &app.address };
        assert_eq!(
            name_via(&app.client, base, token).await,
            format!("Name {i}")
        );
    }

    // One person, 20 concurrent updates: the stored name is one that was acknowledged, and a
    // later update is the last word on both instances.
    let tasks: Vec<_> = (0..20)
        .map(|i| {
            let (client, token) = (app.client.clone(), token.clone());
            let base = if i % 2 == 0 {
                app.address.clone()
            } else {
                other.clone()
            };
            tokio::spawn(async move {
                (
                    i,
                    set_name_retrying(&client, &base, &token, &format!("Race {i}")).await,
                )
            })
        })
        .collect();
    let mut names = Vec::new();
    for task in tasks {
        let (i, status) = task.await.expect("task");
        assert_eq!(status, 200);
        names.push(format!("Race {i}"));
    }
    let stored = name_via(&app.client, &other, &token).await;
    assert!(names.iter().any(|n| stored == n.as_str()), "{stored}");
    assert_eq!(set_name(&app.client, &other, &token, "Final").await, 200);
    assert_eq!(name_via(&app.client, &app.address, &token).await, "Final");
    crate::helpers::drop_postgres_database(&app.database_url).await;
}

/// Closes the database to new connections and ends the open ones; `restore` reopens it.
pub async fn postgres_connections(database_url: &str, allow: bool) {
    let (_, name) = database_url.rsplit_once('/').expect("url");
    let mut statements = vec![format!(
        r#"ALTER DATABASE "{name}" ALLOW_CONNECTIONS {allow}"#
    )];
    if !allow {
        statements.push(format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
        ));
    }
    as_postgres_admin(&statements).await;
}

async fn status_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_postgres_outage_answers_503_json_and_the_server_recovers_without_a_restart() {
    let Some(app) = postgres_app().await else {
        return;
    };
    let token = app.identity.session_token("through-outage");
    assert_eq!(
        set_name(&app.client, &app.address, &token, "Before").await,
        200
    );

    postgres_connections(&app.database_url, false).await;
    let (status, body) = status_of(app.get("/db-health").await).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(app.get("/health").await.status(), 200);
    let (status, body) = status_of(app.current_user(&token).await).await;
    assert_eq!(status, 503);
    assert_eq!(body["code"], "database_unavailable");
    let (status, body) = status_of(app.post("/api/wisdom").await).await;
    assert_eq!(status, 503);
    assert!(body["instructions"].is_string());

    postgres_connections(&app.database_url, true).await;
    let mut recovered = false;
    for _ in 0..50 {
        if app.get("/db-health").await.status() == 200 {
            recovered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(recovered, "db-health recovers once PostgreSQL is back");
    assert_eq!(name_via(&app.client, &app.address, &token).await, "Before");
    assert_eq!(
        set_name(&app.client, &app.address, &token, "After").await,
        200
    );
    crate::helpers::drop_postgres_database(&app.database_url).await;
}

/// The real `mg-server` binary on `app`'s database, on a free port; returns it once it is healthy.
async fn start_binary(app: &TestApp) -> (crate::helpers::Process, String) {
    let port = crate::helpers::free_port();
    let child = crate::helpers::server_command(app, port)
        .env("RATE_LIMIT_PER_MINUTE", "1000000")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start mg-server");
    let server = crate::helpers::Process(child);
    let base = format!("http://127.0.0.1:{port}");
    assert!(
        crate::helpers::healthy_within_10_s(&app.client, &base).await,
        "mg-server did not become healthy"
    );
    (server, base)
}

async fn every_acknowledged_update_survives_a_kill_9_of_the_server(app: TestApp) {
    const N: usize = 25;
    let (mut server, base) = start_binary(&app).await;
    let tokens: Vec<String> = (0..N)
        .map(|i| app.identity.session_token(&format!("durable-{i}")))
        .collect();
    for (i, token) in tokens.iter().enumerate() {
        assert_eq!(
            set_name(&app.client, &base, token, &format!("Kept {i}")).await,
            200
        );
    }
    server.kill();

    let (mut restarted, base) = start_binary(&app).await;
    for (i, token) in tokens.iter().enumerate() {
        assert_eq!(
            name_via(&app.client, &base, token).await,
            format!("Kept {i}")
        );
    }
    restarted.kill();
}
on_both_backends!(every_acknowledged_update_survives_a_kill_9_of_the_server);
