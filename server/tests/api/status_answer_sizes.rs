//! The status answers at the operators' limits: 100 notices kept (30 open, the cap), each with 25
//! updates of 4,000 characters that do not compress away. Every public answer stays under 1 MB,
//! and under 200 KB compressed: the answers carry the open notices and a few recent ones with their
//! newest update, and the whole timelines are on the notice pages, two notices a page.

use mg_server::db::Database;
use mg_status::store::current_notices::NEWEST_UPDATES;

use crate::{
    helpers::TestApp,
    status::{json, page_updated_at, T0},
};

/// Notices seeded, open ones among them, updates each, characters an update.
const NOTICES: i64 = 100;
const OPEN: i64 = 30;
const UPDATES: i64 = 25;
const CHARS: usize = 4_000;

/// Bounds on every public answer, plain and compressed.
const MAX_PLAIN: usize = 1_000_000;
const MAX_COMPRESSED: usize = 200_000;

/// The update text of `seed`: `CHARS` characters that gzip and Brotli shrink by a quarter or so,
/// not to nothing.
fn text(seed: u64) -> String {
    mg_server::db::seed::text(seed, CHARS)
}

/// Writes the notices straight into the table, an hour apart, the newest `OPEN` still open.
pub async fn seed(app: &TestApp) {
    let db = Database::connect(&app.database_url, Some(2))
        .await
        .expect("database");
    db.seed_notices(T0, NOTICES, OPEN, UPDATES, CHARS)
        .await
        .expect("seed notices");
    db.pool().close().await;
}

/// The answer at `path`: its plain size, and its size in each encoding the server keeps a copy in.
async fn sizes(app: &TestApp, path: &str) -> (usize, usize, usize) {
    let mut out = [0; 3];
    for (slot, encoding) in out.iter_mut().zip(["identity", "gzip", "br"]) {
        let response = app.get_with(path, &[("accept-encoding", encoding)]).await;
        assert_eq!(response.status(), 200, "{path}");
        *slot = response.bytes().await.expect("body").len();
    }
    (out[0], out[1], out[2])
}

async fn every_answer_is_bounded_at_the_operators_limits(app: TestApp) {
    seed(&app).await;
    app.status.check_now(T0).await;
    let (_, first) = json(app.get("/api/status/page").await).await;
    let since = page_updated_at(&first);
    app.status.check_now(T0 + 30_000).await;
    let (_, status) = json(app.get("/api/status").await).await;
    let notices = status["notices"].as_array().expect("notices");
    assert_eq!(
        notices
            .iter()
            .filter(|n| n["resolved_at"].is_null())
            .count(),
        OPEN as usize,
        "every open notice is carried"
    );
    let updates: usize = notices
        .iter()
        .map(|n| n["updates"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(
        updates,
        notices.len() + NEWEST_UPDATES as usize - 1,
        "each with its newest update, and the newest of all (the newest notice's whole timeline)"
    );
    let from_second = format!("/status/notices?from=n{}", NOTICES - 2);
    let paths = [
        "/api/status".to_owned(),
        "/api/status/page".to_owned(),
        format!("/api/status/page?since={since}"),
        "/api/status/history?component=api&range=90d".to_owned(),
        "/api/v2/summary.json".to_owned(),
        "/api/v2/incidents.json".to_owned(),
        "/api/v2/incidents/unresolved.json".to_owned(),
        "/api/v2/scheduled-maintenances.json".to_owned(),
        "/status/feed.atom".to_owned(),
        "/status/notices".to_owned(),
        "/status/notices/list".to_owned(),
        "/status/notices?from=".to_owned(),
        from_second.clone(),
    ];
    for path in &paths {
        let (plain, gzip, br) = sizes(&app, path).await;
        eprintln!("{path}: {plain} bytes, gzip {gzip}, br {br}");
        assert!(plain < MAX_PLAIN, "{path}: {plain} bytes");
        assert!(gzip < MAX_COMPRESSED, "{path}: {gzip} bytes gzip");
        assert!(br < MAX_COMPRESSED, "{path}: {br} bytes br");
    }
    // The whole timelines are on the notice pages: the second newest notice's, every update.
    let page = app.get_text(&from_second).await;
    let newest_of_it = text(((NOTICES - 2) * 100 + UPDATES) as u64);
    let first_of_it = text(((NOTICES - 2) * 100 + 1) as u64);
    assert!(page.contains(&newest_of_it) && page.contains(&first_of_it));
    assert!(page.contains(&format!("/status/notices?from=n{}", NOTICES - 4)));
    assert_eq!(app.get("/status/notices?from=nothing").await.status(), 404);
    assert_eq!(app.get("/status/notices?page=2").await.status(), 400);
}

on_both_backends!(every_answer_is_bounded_at_the_operators_limits);
