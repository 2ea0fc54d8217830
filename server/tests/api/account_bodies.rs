//! What a client chooses that the account routes must not take at its word: the routes that take no
//! fields (`current-user`, `logout`, `sessions`, `sessions/revoke-others`, `export`) take no body
//! or `{}` and refuse any other (a revoke-others with a stray field signs nobody out); and one
//! sign-in sent under several session ids is listed as this device under each, as the server
//! treats it, so "all other sessions" says what it will do.

use serde_json::json;

use crate::{
    account::{Browser, FIREFOX, LAPTOP, PHONE, SAFARI},
    helpers::TestApp,
};

async fn a_route_without_fields_refuses_a_body_with_any_and_does_nothing(app: TestApp) {
    let ada = Browser::new(&app, "ada", LAPTOP, FIREFOX);
    ada.me().await;
    let phone = Browser::new(&app, "ada", PHONE, SAFARI);
    phone.me().await;
    for path in [
        "/api/auth/current-user",
        "/api/auth/sessions",
        "/api/auth/sessions/revoke-others",
        "/api/auth/export",
        "/api/auth/logout",
    ] {
        for bad in [json!({"x": 1}), json!(null), json!([]), json!("notjson")] {
            assert_eq!(
                ada.refused(path, &bad, 400).await,
                "bad_request",
                "{path} {bad}"
            );
        }
    }
    // A body that is not JSON by its type, as on every route.
    let plain = ada
        .send(
            "/api/auth/sessions/revoke-others",
            "text/plain",
            "{}".into(),
        )
        .await;
    assert_eq!(plain.status(), 415);
    assert_eq!(ada.me().await["activeSessions"], 2);
    assert_eq!(app.count_rows("revoked_tokens").await, 0);
}
on_both_backends!(a_route_without_fields_refuses_a_body_with_any_and_does_nothing);

async fn one_sign_in_under_several_session_ids_is_this_device_under_each(app: TestApp) {
    let laptop = Browser::new(&app, "ada", LAPTOP, FIREFOX);
    laptop.me().await;
    let copy = laptop.as_session("copy-0123456789abcdef");
    copy.me().await;
    let phone = Browser::new(&app, "ada", PHONE, SAFARI);
    phone.me().await;
    let sessions = laptop.sessions().await;
    assert_eq!(sessions.len(), 3, "{sessions:?}");
    let others = sessions.iter().filter(|s| s["current"] == false).count();
    assert_eq!(others, 1, "only the phone is another session: {sessions:?}");
    let done = laptop
        .data("/api/auth/sessions/revoke-others", &json!({}))
        .await;
    assert_eq!(done["revoked"], 1);
    assert_eq!(copy.me().await["activeSessions"], 2);
}
on_sqlite!(one_sign_in_under_several_session_ids_is_this_device_under_each);
