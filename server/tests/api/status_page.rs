//! `GET /api/status/page`: the status page's one request per round. The full answer holds the
//! summary and each component's 90-day and 24-hour series; `If-None-Match` with its `ETag` is a 304
//! until the next round; `?since=<updated_at>` sends only the points from that time's bucket on.

use serde_json::Value;

use crate::helpers::TestApp;
use crate::status::{json, T0};

fn series<'a>(page: &'a Value, id: &str, range: &str) -> &'a [Value] {
    page["history"]
        .as_array()
        .expect("history")
        .iter()
        .find(|h| h["component"] == id)
        .unwrap_or_else(|| panic!("{id} in {page}"))[range]["points"]
        .as_array()
        .expect("points")
}

async fn one_request_holds_the_page_and_revalidates(app: TestApp) {
    app.status.check_now(T0).await;
    let first = app.get("/api/status/page").await;
    assert_eq!(first.status(), 200);
    let etag = first.headers()["etag"].to_str().expect("ascii").to_owned();
    let (_, page) = json(first).await;
    let (_, summary) = json(app.get("/api/status").await).await;
    assert_eq!(page["summary"], summary, "the summary is /api/status's own");
    assert_eq!(page["since"], Value::Null);
    assert_eq!(series(&page, "db", "daily").len(), 90);
    assert_eq!(series(&page, "db", "recent").len(), 96);
    let (_, daily) = json(app.get("/api/status/history?component=db&range=90d").await).await;
    assert_eq!(
        series(&page, "db", "daily"),
        daily["points"].as_array().expect("points")
    );

    // Nothing new: 304, with or without `since`.
    let updated_at = page["summary"]["updated_at"]
        .as_str()
        .expect("updated_at")
        .to_owned();
    let since = format!("/api/status/page?since={updated_at}");
    for path in ["/api/status/page", since.as_str()] {
        let again = app
            .get_with(path, &[("if-none-match", etag.as_str())])
            .await;
        assert_eq!(again.status(), 304, "{path}");
        assert!(again.bytes().await.expect("body").is_empty());
    }

    // After a round, `since` gets only the buckets holding that time and later, under the new tag.
    app.status.check_now(T0 + 60 * 60_000).await;
    let delta = app
        .get_with(&since, &[("if-none-match", etag.as_str())])
        .await;
    assert_eq!(delta.status(), 200);
    let new_etag = delta.headers()["etag"].to_str().expect("ascii").to_owned();
    assert_ne!(new_etag, etag);
    let (_, delta) = json(delta).await;
    assert_eq!(delta["since"], updated_at.as_str());
    assert_eq!(series(&delta, "db", "daily").len(), 1, "today only");
    // 12:00 to 13:00: the 12:00 bucket and the four after it.
    assert_eq!(series(&delta, "db", "recent").len(), 5);
    let (_, full) = json(app.get("/api/status/page").await).await;
    assert_eq!(delta["summary"], full["summary"]);
    assert_eq!(
        series(&delta, "db", "recent"),
        &series(&full, "db", "recent")[91..]
    );
    let revalidated = app
        .get_with(&since, &[("if-none-match", new_etag.as_str())])
        .await;
    assert_eq!(revalidated.status(), 304);

    let bad = app.get("/api/status/page?since=yesterday").await;
    assert_eq!(bad.status(), 400);
}
on_both_backends!(
    the_status_page_is_one_request_revalidated_or_sent_incrementally,
    one_request_holds_the_page_and_revalidates
);
