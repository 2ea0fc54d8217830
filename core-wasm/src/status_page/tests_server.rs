//! What the page states from the server's answer: what is checked (`not_configured`), each card's
//! status and the overall words, the incidents sentence beside the operators' open incidents, and
//! the operators' posts asked in the page's one schedule of rounds.

use super::tests::{answer, page_json, NOON};
use super::*;
use crate::text::join;

/// `page_json` with the queue `not_configured`, or measured by the server with `status`.
fn queue_page(status: Option<&str>) -> String {
    let page = page_json("2026-11-25T11:59:30.000Z", 90, 100.0, None);
    match status {
        None => page.replacen(r#""components":["#, r#""not_configured":["queue"],"components":["#, 1),
        Some(status) => page.replacen(
            r#""components":["#,
            &join(&[
                r#""components":[{"id":"queue","name":"Telekinesis queue","state":"down","status":""#,
                status,
                r#"","last_checked_at":"2026-11-25T11:59:30.000Z"},"#,
            ]),
            1,
        ),
    }
}

#[test]
fn what_is_checked_is_the_servers_answer_not_the_pages_settings() {
    // The page has a queue address, the server has none: the card says the server checks none.
    let mut with_url = StatusPageMachine::new(false, false, Some("http://127.0.0.1:9/q".into()));
    with_url.poll(NOON);
    answer(&mut with_url, 1, 200, "\"t\"", &queue_page(None));
    let card = &with_url.view().cards[2];
    assert!(card.unchecked);
    assert_eq!(
        card.note,
        "The server checks no Telekinesis queue: none is configured for this deployment."
    );

    // The page has none, the server checks it: the card shows the server's measure.
    let mut without = StatusPageMachine::new(false, false, None);
    without.poll(NOON);
    answer(
        &mut without,
        1,
        200,
        "\"t\"",
        &queue_page(Some("major_outage")),
    );
    let card = &without.view().cards[2];
    assert!(!card.unchecked);
    assert_eq!(card.status.as_deref(), Some("Major outage"));
    assert_eq!(without.live()[2].label, "Unhealthy");
}

#[test]
fn the_overall_words_and_each_cards_status_are_the_servers() {
    let mut machine = StatusPageMachine::new(false, false, None);
    machine.poll(NOON);
    assert_eq!(
        machine.view().overall,
        None,
        "nothing said before the answer"
    );
    let page = page_json("2026-11-25T11:59:30.000Z", 90, 100.0, None)
        .replacen(
            r#"{"summary":{"#,
            r#"{"summary":{"indicator":"major","description":"Partial System Outage","open_operator_incidents":1,"#,
            1,
        )
        .replacen(
            r#""state":"operational","uptime""#,
            r#""state":"operational","status":"major_outage","status_source":"declared","uptime""#,
            1,
        )
        .replace(r#""open_incidents":[{"id":"i2","component":"db","component_name":"Database","started_at":"2026-11-25T11:00:00.000Z","ended_at":null,"first_error":"timeout"}]"#, r#""open_incidents":[]"#)
        .replace(r#""recent_incidents":[{"id":"i1","component":"api","component_name":"API","started_at":"2026-11-24T10:00:00.000Z","ended_at":"2026-11-24T11:05:20.000Z","first_error":"503"}]"#, r#""recent_incidents":[]"#);
    answer(&mut machine, 1, 200, "\"t\"", &page);
    let view = machine.view();
    assert_eq!(view.overall.as_deref(), Some("Partial System Outage"));
    assert_eq!(view.overall_indicator.as_deref(), Some("major"));
    assert_eq!(view.cards[0].status.as_deref(), Some("Major outage"));
    assert_eq!(view.cards[0].status_key.as_deref(), Some("major_outage"));
    assert_eq!(view.cards[0].status_note, "Declared by the operators");
    assert_eq!(
        view.incidents_message.as_deref(),
        Some("The checks found no outage in the last 90 days; the operators' open incident is listed below."),
        "no 'No incidents' above an open incident"
    );
}

#[test]
fn the_posts_are_asked_in_the_rounds_every_two_minutes_and_at_once_after_a_post() {
    let mut machine = StatusPageMachine::new(false, false, None);
    let first = machine.poll(NOON).expect("load");
    assert_eq!(first.notices_path.as_deref(), Some("/status/notices/list"));
    assert_eq!(
        machine.view().notices_message.as_deref(),
        Some("Loading posts…")
    );
    machine.notices_result(
        1,
        Some(200),
        Some("\"n1\"".into()),
        Some("<p>Posts</p>".into()),
    );
    assert_eq!(machine.view().notices_html.as_deref(), Some("<p>Posts</p>"));
    assert_eq!(machine.view().notices_message, None);
    for round in 1..4u64 {
        let plan = machine.poll(NOON + round * 30_000).expect("due");
        assert_eq!(plan.notices_path, None, "not before two minutes");
    }
    let fifth = machine.poll(NOON + 120_000).expect("due");
    assert_eq!(fifth.notices_if_none_match.as_deref(), Some("\"n1\""));
    let version = machine.view_version();
    machine.notices_result(fifth.round, Some(304), None, None);
    assert_eq!(machine.view_version(), version, "a 304 changes nothing");
    assert_eq!(machine.view().notices_html.as_deref(), Some("<p>Posts</p>"));

    // An operator posts: a round is due at once, and it asks for the posts.
    machine.posted(NOON + 130_000);
    assert_eq!(machine.next_deadline(), Some(NOON + 130_000));
    let after = machine.poll(NOON + 130_000).expect("due at once");
    assert_eq!(after.notices_path.as_deref(), Some("/status/notices/list"));
    machine.notices_result(after.round - 1, Some(200), None, Some("late".into()));
    assert_eq!(
        machine.view().notices_html.as_deref(),
        Some("<p>Posts</p>"),
        "an earlier round's answer is dropped"
    );
}

/// `page_json` whose summary gives the posts' digest `digest` (the server's `notices::digest`).
fn page_with_posts(digest: &str) -> String {
    page_json("2026-11-25T11:59:30.000Z", 90, 100.0, None).replacen(
        r#""components":["#,
        &join(&[r#""notices_digest":""#, digest, r#"","components":["#]),
        1,
    )
}

#[test]
fn a_page_answer_naming_other_posts_asks_for_them_at_once() {
    let mut machine = StatusPageMachine::new(false, false, None);
    machine.poll(NOON).expect("load");
    answer(&mut machine, 1, 200, "\"t1\"", &page_with_posts("none"));
    machine.notices_result(
        1,
        Some(200),
        Some("\"n1\"".into()),
        Some("<p>None</p>".into()),
    );
    assert_eq!(
        machine.next_deadline(),
        Some(NOON + 30_000),
        "the first answer sets the baseline"
    );

    // A visitor's next round: the server's summary names a new post. Its fragment is asked in a
    // round due at once, not with the round two minutes on.
    let second = machine.poll(NOON + 30_000).expect("due");
    assert_eq!(second.notices_path, None);
    answer(
        &mut machine,
        second.round,
        200,
        "\"t2\"",
        &page_with_posts("one post"),
    );
    assert_eq!(machine.next_deadline(), Some(NOON + 30_000));
    let third = machine.poll(NOON + 30_001).expect("due at once");
    assert_eq!(third.notices_path.as_deref(), Some("/status/notices/list"));
    answer(&mut machine, third.round, 304, "\"t2\"", "");
    assert_eq!(
        machine.next_deadline(),
        Some(NOON + 60_001),
        "the same posts: no extra round"
    );

    // A correction, then resolving: each gives another digest, each asks at once.
    for digest in ["corrected", "resolved"] {
        let plan = machine
            .poll(machine.next_deadline().expect("deadline"))
            .expect("due");
        answer(
            &mut machine,
            plan.round,
            200,
            "\"t\"",
            &page_with_posts(digest),
        );
        let at_once = machine
            .poll(machine.next_deadline().expect("deadline"))
            .expect("due");
        assert_eq!(
            at_once.notices_path.as_deref(),
            Some("/status/notices/list"),
            "{digest}"
        );
    }
}
