//! The account actions on a real database, without HTTP: two or three devices of one person, each
//! a signed-in request as the extractor would build it.

use std::sync::Arc;

use axum::http::{HeaderMap, HeaderValue};
use tempfile::TempDir;

use super::{is_session_id, AccountActions, ACCOUNT_ACTION_EVERY};
use crate::{
    db::{testing::test_database_of, Database},
    error::AppError,
    identity::{
        sessions::{SessionStore, VerifiedSession},
        sha256_hex,
        signed_in::SignedIn,
        user_key,
        verify::SessionClaims,
        AuthUser,
    },
};

const NOW: i64 = 1_800_000_000_000;
const FIREFOX: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/// `sub` signed in on `device`: its own token (bound to the token, no sign-in id) and session id.
fn device(db: &Database, store: &Arc<SessionStore>, sub: &str, device: &str) -> SignedIn {
    let token_hash = sha256_hex(format!("{sub}/{device}").as_bytes());
    let seconds = u64::try_from(NOW / 1000).expect("positive");
    let user = AuthUser(Arc::new(VerifiedSession {
        claims: SessionClaims {
            sub: sub.into(),
            iss: "P1".into(),
            exp: seconds + 600,
            iat: Some(seconds - 10),
            drn: Some("DS".into()),
            sid: None,
            email: None,
            name: None,
            roles: vec![],
        },
        binding: token_hash.clone(),
        token_hash,
        user_key: user_key(sub),
    }));
    let mut headers = HeaderMap::new();
    let id = format!("{device}-0123456789abcdef");
    headers.insert("x-session-id", HeaderValue::from_str(&id).expect("header"));
    headers.insert("user-agent", HeaderValue::from_static(FIREFOX));
    SignedIn::new(db.clone(), store.clone(), user, headers)
}

/// A database where each of `people` has an account, this instance's session store, and the
/// account actions.
async fn accounts(people: &[&str]) -> (TempDir, Database, Arc<SessionStore>, AccountActions) {
    let (dir, db) = test_database_of(people).await;
    (
        dir,
        db,
        Arc::new(SessionStore::default()),
        AccountActions::default(),
    )
}

#[tokio::test]
async fn the_list_records_the_callers_session_and_marks_it() {
    let (_dir, db, store, actions) = accounts(&["ada"]).await;
    let laptop = device(&db, &store, "ada", "laptop");
    let listed = actions.sessions(&laptop, NOW).await.expect("list");
    assert_eq!(listed.rows.len(), 1);
    assert_eq!(listed.rows[0].session_key, listed.current);
    assert_eq!(listed.rows[0].label.as_deref(), Some("Firefox on Linux"));
    let phone = device(&db, &store, "ada", "phone");
    let listed = actions.sessions(&phone, NOW).await.expect("list");
    assert_eq!(listed.rows.len(), 2);
    assert_ne!(
        listed.current,
        actions.sessions(&laptop, NOW).await.expect("list").current
    );
}

#[tokio::test]
async fn signing_out_another_session_refuses_its_tokens_and_nothing_else() {
    let (_dir, db, store, actions) = accounts(&["ada"]).await;
    let (laptop, phone) = (
        device(&db, &store, "ada", "laptop"),
        device(&db, &store, "ada", "phone"),
    );
    actions.sessions(&phone, NOW).await.expect("list");
    let listed = actions.sessions(&laptop, NOW).await.expect("list");
    let other = listed
        .rows
        .iter()
        .find(|row| row.session_key != listed.current)
        .expect("the phone's session")
        .session_key
        .clone();

    // Bad ids, the caller's own session and an unknown one change nothing.
    for (id, refusal) in [
        ("not-an-id".to_owned(), "64 hex digits"),
        (listed.current.clone(), "log out instead"),
    ] {
        match actions.revoke(&laptop, &id, NOW).await {
            Err(AppError::InvalidField(message)) => assert!(message.contains(refusal), "{message}"),
            other => panic!("{id}: {other:?}"),
        }
    }
    assert!(matches!(
        actions.revoke(&laptop, &"ab".repeat(32), NOW).await,
        Err(AppError::NoSuchSession)
    ));
    assert_eq!(db.list_sessions("ada", NOW).await.expect("read").len(), 2);

    assert_eq!(
        actions.revoke(&laptop, &other, NOW).await.expect("revoke"),
        1
    );
    let left = db.list_sessions("ada", NOW).await.expect("read");
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].session_key, listed.current);
    let key = user_key("ada");
    let issued = NOW - 10_000;
    assert!(db
        .token_refused(phone.user.binding(), &key, issued, NOW)
        .await
        .expect("read"));
    assert!(!db
        .token_refused(laptop.user.binding(), &key, issued, NOW)
        .await
        .expect("read"));
}

#[tokio::test]
async fn all_other_sessions_at_once() {
    let (_dir, db, store, actions) = accounts(&["ada"]).await;
    let devices = ["laptop", "phone", "tablet"].map(|name| device(&db, &store, "ada", name));
    for each in &devices {
        actions.sessions(each, NOW).await.expect("list");
    }
    assert_eq!(
        actions
            .revoke_others(&devices[0], NOW)
            .await
            .expect("revoke"),
        2
    );
    assert_eq!(
        actions
            .sessions(&devices[0], NOW)
            .await
            .expect("list")
            .rows
            .len(),
        1
    );
    assert_eq!(
        actions
            .revoke_others(&devices[0], NOW)
            .await
            .expect("again"),
        0
    );
}

#[tokio::test]
async fn export_and_deletion_are_each_once_per_interval_per_user() {
    let (_dir, db, store, actions) = accounts(&["ada", "bob"]).await;
    let (ada, bob) = (
        device(&db, &store, "ada", "laptop"),
        device(&db, &store, "bob", "laptop"),
    );
    actions.sessions(&ada, NOW).await.expect("list");
    let (user, sessions) = actions.export(&ada, NOW).await.expect("export");
    assert_eq!(user.identity_id, "ada");
    assert_eq!(sessions.rows.len(), 1);
    assert!(matches!(
        actions.export(&ada, NOW + 1).await,
        Err(AppError::RateLimited { .. })
    ));
    // Another user, and another action, are not held back.
    actions.export(&bob, NOW + 1).await.expect("bob's export");
    assert!(actions.delete(&ada, NOW + 1).await.expect("delete"));
    assert!(db.find_user("ada").await.expect("read").is_none());
    assert!(matches!(
        actions.delete(&ada, NOW + 2).await,
        Err(AppError::RateLimited { .. })
    ));
    let every = i64::try_from(ACCOUNT_ACTION_EVERY.as_millis()).expect("ms");
    assert!(matches!(
        actions.export(&bob, NOW + every).await,
        Err(AppError::RateLimited { .. })
    ));
    actions
        .export(&bob, NOW + 1 + every)
        .await
        .expect("bob's next export");
    assert!(
        !actions
            .delete(&ada, NOW + 1 + every)
            .await
            .expect("nothing left"),
        "deleted already"
    );
    assert!(db.find_user("bob").await.expect("read").is_some());
}

#[test]
fn only_hex_session_ids_of_the_right_length_pass() {
    assert!(is_session_id(&"a1".repeat(32)));
    assert!(!is_session_id(&"A1".repeat(32)));
    assert!(!is_session_id(&"a1".repeat(31)));
    assert!(!is_session_id(&"zz".repeat(32)));
    assert!(!is_session_id(""));
}
