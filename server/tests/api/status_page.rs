//! `GET /api/status/page`: the status page's one request per round. The full answer holds the
//! summary and each component's 90-day and 24-hour series; `If-None-Match` with its `ETag` is a 304
//! until the next round; `?since=<updated_at>` sends only the points from that time's bucket on,
//! under a weak tag of its own, or the full page itself when nothing would be left out.

use serde_json::Value;

use crate::helpers::{header, TestApp};
use crate::status::{json, page_updated_at, T0};

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

async fn the_status_page_is_one_request_revalidated_or_sent_incrementally(app: TestApp) {
    app.status.check_now(T0).await;
    let first = app.get("/api/status/page").await;
    assert_eq!(first.status(), 200);
    let etag = header(&first, "etag").to_owned();
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
    let updated_at = page_updated_at(&page);
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
    let new_etag = header(&delta, "etag").to_owned();
    assert_ne!(new_etag, etag);
    let (_, delta) = json(delta).await;
    // Made once for the round: from the bucket an hour back on, the earliest `since` it serves.
    assert_eq!(delta["since"], updated_at.as_str());
    assert_eq!(
        series(&delta, "db", "daily").len(),
        2,
        "yesterday and today"
    );
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
on_both_backends!(the_status_page_is_one_request_revalidated_or_sent_incrementally);

async fn an_old_since_gets_the_full_page_and_an_incremental_answer_its_own_weak_tag(app: TestApp) {
    app.status.check_now(T0).await;
    let (_, first) = json(app.get("/api/status/page").await).await;
    let updated_at = page_updated_at(&first);
    app.status.check_now(T0 + 60 * 60_000).await;
    let full = app
        .get_with("/api/status/page", &[("accept-encoding", "br")])
        .await;
    let full_tag = header(&full, "etag").to_owned();
    let full_body = full.bytes().await.expect("body");
    let plain = app.get("/api/status/page").await;
    let plain_tag = header(&plain, "etag").to_owned();

    // Before: a `since` older than everything kept was answered by a body made for the request,
    // uncompressed, under the full page's tag. It is the full page, compressed, with its own tag.
    let old = app
        .get_with(
            "/api/status/page?since=2020-01-01T00:00:00.000Z",
            &[("accept-encoding", "br")],
        )
        .await;
    assert_eq!(old.status(), 200);
    assert_eq!(old.headers()["content-encoding"], "br");
    assert_eq!(old.headers()["etag"], full_tag.as_str());
    assert_eq!(old.bytes().await.expect("body"), full_body);

    // A `since` inside what is kept: another body, so never under the full page's strong tags;
    // under their weak twin, which revalidates to a 304 until the next round.
    let since = format!("/api/status/page?since={updated_at}");
    let delta = app.get_with(&since, &[("accept-encoding", "br")]).await;
    assert_eq!(delta.status(), 200);
    assert_eq!(
        delta.headers()["content-encoding"],
        "br",
        "compressed once a round"
    );
    let delta_tag = header(&delta, "etag").to_owned();
    assert_eq!(delta_tag, format!("W/{plain_tag}"));
    assert_ne!(delta_tag, full_tag);
    let (_, delta) = json(app.get(&since).await).await;
    assert_eq!(delta["since"], updated_at.as_str());
    for sent in [delta_tag.as_str(), full_tag.as_str()] {
        let again = app.get_with(&since, &[("if-none-match", sent)]).await;
        assert_eq!(again.status(), 304, "{sent}");
    }
}
on_both_backends!(an_old_since_gets_the_full_page_and_an_incremental_answer_its_own_weak_tag);
