//! No acknowledged write of the account page is lost (as `durability.rs` does for the other
//! writes): with the database broken under a running server, sessions are signed out one by one and
//! all at once and accounts deleted; after the repair every write answered 200 holds and every
//! refused one (503 JSON, an ERROR line in the log) left nothing behind.

use serde_json::{json, Value};

use crate::{
    durability::{acknowledged, ErrorLog},
    helpers::TestApp,
};

const AGENT: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

async fn post(
    app: &TestApp,
    token: &str,
    session: &str,
    path: &str,
    body: &Value,
) -> reqwest::Response {
    app.client
        .post(format!("{}{path}", app.address))
        .bearer_auth(token)
        .header("x-session-id", session)
        .header("user-agent", AGENT)
        .json(body)
        .send()
        .await
        .expect("request reaches the server")
}

/// A person signed in from a laptop and a phone (each with its own token).
struct Person {
    sub: String,
    laptop_token: String,
    phone_token: String,
    laptop: String,
    phone: String,
}

impl Person {
    async fn status(&self, app: &TestApp, session: &str) -> u16 {
        let token = if session == self.phone {
            &self.phone_token
        } else {
            &self.laptop_token
        };
        post(app, token, session, "/api/auth/current-user", &json!({}))
            .await
            .status()
            .as_u16()
    }
}

async fn account_writes_survive<B, R>(app: &TestApp, break_it: B, repair: R)
where
    B: AsyncFnOnce(),
    R: AsyncFnOnce(),
{
    let (log, _guard) = ErrorLog::installed();
    let mut people = Vec::new();
    for i in 0..9 {
        let person = Person {
            sub: format!("durable-{i}"),
            laptop_token: app.identity.session_token(&format!("durable-{i}")),
            phone_token: app.identity.session_token(&format!("durable-{i}")),
            laptop: format!("laptop-session-{i:04}"),
            phone: format!("phone-session-{i:04}"),
        };
        assert_eq!(person.status(app, &person.laptop).await, 200);
        assert_eq!(person.status(app, &person.phone).await, 200);
        people.push(person);
    }
    // The phones' ids, read while the database works.
    let mut phone_ids = Vec::new();
    for p in &people {
        let answer: Value = post(
            app,
            &p.laptop_token,
            &p.laptop,
            "/api/auth/sessions",
            &json!({}),
        )
        .await
        .json()
        .await
        .expect("JSON");
        let sessions = answer["data"]["sessions"].as_array().expect("sessions");
        let phone = sessions
            .iter()
            .find(|s| s["current"] == false)
            .expect("phone");
        phone_ids.push(phone["id"].as_str().expect("id").to_owned());
    }

    break_it().await;
    let mut outcomes = Vec::new();
    let mut refused = 0;
    for (i, p) in people.iter().enumerate() {
        let (path, body) = match i % 3 {
            0 => ("/api/auth/sessions/revoke", json!({ "id": phone_ids[i] })),
            1 => ("/api/auth/sessions/revoke-others", json!({})),
            _ => ("/api/auth/delete-account", json!({"confirm": true})),
        };
        let done = acknowledged(
            post(app, &p.laptop_token, &p.laptop, path, &body).await,
            path,
            &[200],
        )
        .await;
        refused += usize::from(!done);
        outcomes.push(done);
    }
    assert!(
        refused > 0,
        "the fault refused no write: nothing was tested"
    );
    assert!(
        log.lines() >= refused,
        "every refused write logs an ERROR line: {} for {refused}",
        log.lines()
    );

    repair().await;
    // As after the write scenario's repair: the server's clock a probe's reuse further on, and the
    // pool's connections the repair ended replaced (real connections: polled, within 10 s).
    app.config.clock.advance(mg_server::db::probe::PROBE_REUSE);
    crate::status_outage::wait_for_db_health(app).await;
    for (i, (p, done)) in people.iter().zip(outcomes).enumerate() {
        let users = app
            .count_rows(&format!("users WHERE identity_id = '{}'", p.sub))
            .await;
        let phone = p.status(app, &p.phone).await;
        if i % 3 == 2 {
            assert_eq!(
                users,
                i64::from(!done),
                "{}: the account after deletion",
                p.sub
            );
            let laptop = p.status(app, &p.laptop).await;
            let expected = if done { 401 } else { 200 };
            assert_eq!((laptop, phone), (expected, expected), "{}", p.sub);
        } else {
            assert_eq!(users, 1);
            assert_eq!(phone, if done { 401 } else { 200 }, "{}'s phone", p.sub);
            assert_eq!(p.status(app, &p.laptop).await, 200, "{}'s laptop", p.sub);
        }
    }
}

under_write_faults!(
    a_full_disk_loses_no_acknowledged_sign_out_or_deletion,
    a_read_only_postgres_loses_no_acknowledged_sign_out_or_deletion,
    account_writes_survive,
    |_config| {}
);
