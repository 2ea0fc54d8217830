//! The account routes that take no fields (`current-user`, `logout`, `sessions`,
//! `sessions/revoke-others`, `export`) take no body or `{}`, and refuse any other: a stray field
//! never reaches them, and a revoke-others with one signs nobody out.

use serde_json::json;

use crate::{
    account::{Browser, FIREFOX, LAPTOP, PHONE, SAFARI},
    helpers::TestApp,
};

async fn bodies_with_fields_are_refused(app: TestApp) {
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
    assert_eq!(ada.me().await["activeSessions"], 2);
    assert_eq!(app.count_rows("revoked_tokens").await, 0);
}
on_both_backends!(
    a_route_without_fields_refuses_a_body_with_any_and_does_nothing,
    bodies_with_fields_are_refused
);
