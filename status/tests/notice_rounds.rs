//! A round reads and compresses the operators' notices again only when they were written: with no
//! write since the last round it reads their generation alone (`RoundReport::notices_read`) and
//! compresses only the pieces of the answers that changed (`RoundReport::answer_bytes`), the notice
//! text being the bulk of them; an update or a correction written through another instance is in
//! this instance's answers after its next round.

use mg_platform::{
    db::{seed::text, testing::test_database, Database},
    precomputed::{decoded_copies, Encoding},
};
use mg_status::{store::checks::RawCheck, StatusConfig, StatusService};

/// 2026-11-20T12:00:00Z.
const NOW: i64 = 1_795_176_000_000;

/// An update of `notice` as any instance writes it (the updates' trigger keeps its row).
async fn post(db: &Database, notice: i64, seq: i64, body: &str, at: i64) {
    sqlx::query(
        "INSERT INTO status_notice_updates (notice_id, seq, kind, title, impact, components, \
         status, body, created_at, author) \
         VALUES ($1, $2, 'incident', 'Slow', 'minor', 'api', 'investigating', $3, $4, 'ops')",
    )
    .bind(format!("n{notice}"))
    .bind(seq)
    .bind(body)
    .bind(at)
    .execute(db.pool())
    .await
    .expect("post");
}

/// A round of instance `a` at `at`.
async fn round(service: &StatusService, at: i64) -> mg_status::RoundReport {
    service.record(RawCheck::all_healthy("a", at), at).await
}

/// The body of `/api/status` as published, after checking that its copies decode to it.
fn status_body(service: &StatusService) -> String {
    let published = service.published();
    let copies = &published.status.copies;
    let body = copies.encoded(Encoding::Identity).0.body.clone();
    for copy in decoded_copies(copies) {
        assert!(copy == body, "a compressed copy decodes to the body");
    }
    String::from_utf8(body.to_vec()).expect("utf-8")
}

#[tokio::test]
async fn a_round_without_a_write_reuses_the_notices_and_the_next_round_after_one_shows_it() {
    let (_dir, db) = test_database().await;
    for notice in 0..8 {
        for seq in 1..=3 {
            post(
                &db,
                notice,
                seq,
                &text((notice * 10 + seq) as u64, 4_000),
                NOW - 3_600_000 + notice * 60_000 + seq,
            )
            .await;
        }
    }
    let service = StatusService::new(db.clone(), StatusConfig::manual("a"), "https://s.test");

    let first = round(&service, NOW).await;
    assert!(first.notices_read, "the first round reads the notices");
    let (made, compressed) = first.answer_bytes;
    assert!(
        made > 100_000 && compressed > made / 2,
        "{made} {compressed}"
    );
    let before = status_body(&service);

    let second = round(&service, NOW + 30_000).await;
    assert!(
        !second.notices_read,
        "no write: the notices are not read again"
    );
    let (made, compressed) = second.answer_bytes;
    assert!(
        compressed < made / 10,
        "no write: the notice text is not compressed again ({compressed} of {made} bytes)"
    );
    let after = status_body(&service);
    assert_ne!(before, after, "the round's own figures changed");
    assert_eq!(
        before.matches("<p>").count(),
        after.matches("<p>").count(),
        "the same notices"
    );

    // Another instance posts an update: shown after this instance's next round.
    post(&db, 3, 4, "Fixed **now**.", NOW + 40_000).await;
    assert!(!status_body(&service).contains("Fixed <strong>now</strong>."));
    let third = round(&service, NOW + 60_000).await;
    assert!(third.notices_read, "a write: the notices are read again");
    assert!(status_body(&service).contains("Fixed <strong>now</strong>."));

    // And corrects it.
    sqlx::query(
        "INSERT INTO status_update_revisions (notice_id, seq, rev, body, old_body, created_at, \
         author) VALUES ('n3', 4, 1, 'Fixed at noon.', 'Fixed **now**.', $1, 'ops')",
    )
    .bind(NOW + 70_000)
    .execute(db.pool())
    .await
    .expect("correct");
    let fourth = round(&service, NOW + 90_000).await;
    assert!(
        fourth.notices_read,
        "a correction: the notices are read again"
    );
    let body = status_body(&service);
    assert!(body.contains("Fixed at noon.") && !body.contains("Fixed <strong>now"));

    let fifth = round(&service, NOW + 120_000).await;
    assert!(!fifth.notices_read);
}
