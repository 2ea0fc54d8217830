//! Signing out from the app through the local emulator: the refresh token of a signed-out sign-in
//! stops working (so its browser gets no new token), on every instance; the caller's keeps working
//! after "sign out all others"; after deletion none does, and none of the deleted account's ends
//! anything through logout or logoutall either, whatever the server's clock reads.

use mg_server::config::LOCAL_EMULATOR_PROJECT_ID;
use serde_json::{json, Value};

use crate::emulator::{emulator_on, error_of, sign_in};
use crate::helpers::{spawn_sibling, TestApp};
use crate::revocation::{call_ok, me, others};

/// `POST {address}/v1/auth/refresh` with `refresh`, as the SDK sends it.
async fn refresh_at(app: &TestApp, address: &str, refresh: &str) -> reqwest::Response {
    session_call(app, address, "refresh", refresh).await
}

/// `POST {address}/v1/auth/{call}` (`refresh`, `logout`, `logoutall`) with `refresh`.
async fn session_call(
    app: &TestApp,
    address: &str,
    call: &str,
    refresh: &str,
) -> reqwest::Response {
    app.client
        .post(format!("{address}/v1/auth/{call}"))
        .header(
            "authorization",
            format!("Bearer {LOCAL_EMULATOR_PROJECT_ID}:{refresh}"),
        )
        .json(&json!({}))
        .send()
        .await
        .expect("answers")
}

/// A sign-in through the provider page: its session token, refresh token and session id.
struct SignIn {
    session: String,
    refresh: String,
    id: String,
}

async fn signed_in(app: &TestApp, n: usize) -> SignIn {
    let jwt = sign_in(app, "github", &[("account", "preset-0")]).await;
    let signed = SignIn {
        session: jwt["sessionJwt"].as_str().expect("sessionJwt").to_owned(),
        refresh: jwt["refreshJwt"].as_str().expect("refreshJwt").to_owned(),
        id: format!("browser-{n}-0123456789abcdef"),
    };
    assert_eq!(me(app, &signed.session, Some(&signed.id)).await, 200);
    signed
}

/// This session's id in the list, as another session would send it to `sessions/revoke`.
async fn own_id(app: &TestApp, who: &SignIn) -> String {
    let listed = call_ok(
        app,
        &who.session,
        Some(&who.id),
        "/api/auth/sessions",
        &json!({}),
    )
    .await;
    let sessions = listed["sessions"].as_array().expect("sessions");
    let mine = sessions
        .iter()
        .find(|s| s["current"] == true)
        .expect("mine");
    mine["id"].as_str().expect("id").to_owned()
}

/// Deletes the account of the session `token` (sent under the session id `id`).
async fn delete_account(app: &TestApp, token: &str, id: &str) {
    call_ok(
        app,
        token,
        Some(id),
        "/api/auth/delete-account",
        &json!({"confirm": true}),
    )
    .await;
}

async fn refused(app: &TestApp, address: &str, refresh: &str) {
    let answer = error_of(refresh_at(app, address, refresh).await, 401).await;
    assert_eq!(answer["errorCode"], "E061004");
}

async fn emulator_refresh_tokens_end(app: TestApp) {
    // A second instance on the same database and data directory (the same emulator keys).
    let sibling = spawn_sibling(&app, |_| {}).await;
    let mut sign_ins = Vec::new();
    for n in 0..4 {
        sign_ins.push(signed_in(&app, n).await);
    }
    let [laptop, phone, tablet, watch] = <[SignIn; 4]>::try_from(sign_ins).ok().expect("four");
    let listed = others(&app, &laptop.session, &laptop.id).await;
    assert_eq!(listed.len(), 3);
    assert!(
        listed.iter().all(|s| s["boundToSignIn"] == true),
        "{listed:?}"
    );

    // One session signed out: its tokens and its refresh token, everywhere.
    let watch_id = own_id(&app, &watch).await;
    let revoke = json!({ "id": watch_id });
    call_ok(
        &app,
        &laptop.session,
        Some(&laptop.id),
        "/api/auth/sessions/revoke",
        &revoke,
    )
    .await;
    assert_eq!(me(&app, &watch.session, None).await, 401);
    for address in [&app.address, &sibling] {
        refused(&app, address, &watch.refresh).await;
    }
    assert_eq!(
        refresh_at(&app, &sibling, &phone.refresh).await.status(),
        200
    );

    // All others: the phone's and the tablet's refresh tokens end, the laptop's goes on.
    let path = "/api/auth/sessions/revoke-others";
    let answer = call_ok(&app, &laptop.session, Some(&laptop.id), path, &json!({})).await;
    assert_eq!(answer["revoked"], 2, "{answer}");
    assert_eq!(me(&app, &phone.session, None).await, 401);
    for refresh in [&phone.refresh, &tablet.refresh] {
        for address in [&app.address, &sibling] {
            refused(&app, address, refresh).await;
        }
    }
    let renewed = refresh_at(&app, &sibling, &laptop.refresh).await;
    assert_eq!(renewed.status(), 200);
    let renewed: Value = renewed.json().await.expect("JSON");
    let next = renewed["sessionJwt"].as_str().expect("sessionJwt");
    assert_eq!(me(&app, next, Some(&laptop.id)).await, 200);

    // Deletion ends the caller's sign-in too, and no old token brings the account back.
    delete_account(&app, next, &laptop.id).await;
    for address in [&app.address, &sibling] {
        refused(&app, address, &laptop.refresh).await;
    }
    assert_eq!(me(&app, next, None).await, 401);
    assert_eq!(
        me(&app, &laptop.session, Some("a-new-id-0000000000001")).await,
        401
    );
    let user_id = renewed["user"]["userId"].as_str().expect("userId");
    assert_eq!(
        app.count_rows(&format!("users WHERE identity_id = '{user_id}'"))
            .await,
        0
    );
}
on_both_backends!(
    the_emulators_refresh_tokens_of_signed_out_sessions_stop_working,
    emulator_refresh_tokens_end,
    emulator_on
);

/// Moves the servers' clock (the emulator issues on it) a second on: tokens' `iat` and the ends of
/// sign-ins are whole seconds.
fn next_second(app: &TestApp) {
    app.config.clock.advance(std::time::Duration::from_secs(1));
}

async fn deleted_accounts_tokens_end_nothing(app: TestApp) {
    let sibling = spawn_sibling(&app, |_| {}).await;
    let old = signed_in(&app, 0).await;
    delete_account(&app, &old.session, &old.id).await;
    // The same person signs in again (the same user at the provider): a new account, and its
    // sign-in is issued in a later second than the old account's end.
    next_second(&app);
    let new = signed_in(&app, 1).await;
    next_second(&app);

    // The deleted account's refresh token, on each instance: refresh refuses it, and logout and
    // logoutall answer `{}` and end nothing. (Before, logoutall on an instance ended every sign-in
    // of the user issued before it there, the new account's included.)
    for address in [&app.address, &sibling] {
        refused(&app, address, &old.refresh).await;
        for call in ["logoutall", "logout"] {
            let answer = session_call(&app, address, call, &old.refresh).await;
            assert_eq!(answer.status(), 200, "{call} at {address}");
            let body: Value = answer.json().await.expect("JSON");
            assert_eq!(body, json!({}));
        }
    }
    for address in [&app.address, &sibling] {
        let renewed = refresh_at(&app, address, &new.refresh).await;
        assert_eq!(
            renewed.status(),
            200,
            "the new account's sign-in at {address}"
        );
    }
    assert_eq!(me(&app, &new.session, Some(&new.id)).await, 200);

    // The new sign-in's own logoutall still ends it (on the instance that received it).
    let answer = session_call(&app, &sibling, "logoutall", &new.refresh).await;
    assert_eq!(answer.status(), 200);
    refused(&app, &sibling, &new.refresh).await;
}
on_both_backends!(
    a_deleted_accounts_refresh_tokens_log_nothing_out_on_any_instance,
    deleted_accounts_tokens_end_nothing,
    emulator_on
);

async fn a_deletion_ends_the_sign_ins_issued_on_a_clock_moved_ahead(app: TestApp) {
    // The emulator issues on the server's clock, so the deletion must be stamped on that clock too:
    // on the machine's, a sign-in issued after the clock moved would outlive it.
    app.config
        .clock
        .advance(std::time::Duration::from_secs(300));
    let used = signed_in(&app, 0).await;
    // A second sign-in of the same person, never used here: no session row names it, so only the
    // account's end (the user's not-before time) can refuse it.
    let unused = sign_in(&app, "github", &[("account", "preset-0")]).await;
    let unused = unused["sessionJwt"].as_str().expect("sessionJwt");
    delete_account(&app, &used.session, &used.id).await;
    assert_eq!(
        me(&app, unused, Some("browser-9-0123456789abcdef")).await,
        401
    );
    assert_eq!(app.count_rows("users").await, 0, "not made again");
}
on_both_backends!(a_deletion_ends_the_sign_ins_issued_on_a_clock_moved_ahead, with emulator_on);
