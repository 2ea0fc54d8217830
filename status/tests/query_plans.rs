//! Every statement of the status store (the rounds' checks, rollups and incidents, the notices,
//! the webhooks' queue, and their pruning) finds its rows through an index: explained on a
//! database seeded with thousands of rows of each history table (statistics refreshed), no plan
//! reads a growing table whole. A statement the store runs that is not listed here fails the test.
//! Then the same history is pruned, to show each pruning statement deletes at most a batch.

use mg_platform::db::{
    plans::{trigger, unplanned_statements, Planned},
    seed::numbers,
    Database,
};
use mg_status::store::{
    checks as c, current_notices as a, declarations as s, deliveries as d, notices as n,
    revisions as r, webhooks as w, window_clock as k,
};

/// Rows seeded in each history table, one a second (a table a hundred times the pruning batch, as
/// a deployed history is, so that PostgreSQL's planner weighs reading it whole as it would there).
const ROWS: i64 = 100_000;

/// The webhooks (at most a handful live: `operator_limits`) and subqueries of a row or a few.
const BOUNDED: &[&str] = &["status_webhooks", "w", "base", "last", "recent"];

/// The store's statements, with arguments near the end of the seeded history.
const STATEMENTS: &[Planned] = mg_platform::planned![
    c::CHECKS_SINCE["99900000"],
    c::CHECKS_STORED_AFTER["99990", "0"],
    c::CHECKS_OF["'inst-1'", "99900000", "100000000"],
    c::CHECKS_BETWEEN["99900000", "100000000"],
    c::ROLLUPS_SINCE["'hour'", "99900000"],
    c::HISTORY_ROLLUPS_SINCE["99900000"],
    c::UPSERT_INCIDENT["'c1'", "'inst-1'", "99900000", "NULL", "'down'"],
    c::INCIDENTS_SINCE["99900000", "50"],
    d::NOTICE_UPDATES_TO_ENQUEUE["99900000"],
    d::COMPONENT_EVENTS_TO_ENQUEUE["99900000"],
    d::DELIVERY_KEYS_SINCE["99900000"],
    d::ENQUEUE_DELIVERY["'d-new'", "'w1'", "'e-new'", "'{}'", "'{}'", "'pending'", "100000000"],
    d::MARK_DELIVERY["'d7'", "100060000", "'delivered'", "200", "NULL", "NULL", "100000000"],
    d::FAIL_ORPHANED_DELIVERIES["100000000"],
    d::DELIVERY_LOG["50"],
    d::CLEAR_RECEIVER_FAILURES["'w1'"],
    d::NEXT_DELIVERY_DUE[],
    n::COUNT_OPEN_NOTICES["100000000"],
    n::INSERT_NOTICE[
        "'n-new'", "'incident'", "'Down'", "'major'", "'api'", "NULL", "NULL", "NULL",
        "'investigating'", "'Looking.'", "100000000", "'op'", "10", "NULL"
    ],
    n::APPEND_NOTICE_UPDATE[
        "'n7'", "'incident'", "'resolved'", "'Fixed.'", "100000000", "'op'", "25", "NULL"
    ],
    n::FIND_NOTICE["'n7'"],
    n::NOTICES_SINCE["99900000", "100"],
    n::OPERATOR_LOG["50"],
    n::PRUNE_NOTICES["1000000", "35"],
    w::INSERT_WEBHOOK[
        "'w-new'", "'Chat'", "'https://example.com'", "'json'", "'s'", "100000000", "'op'", "10"
    ],
    w::DELETE_WEBHOOK["'w1'", "100000000", "'op'"],
    w::LIVE_WEBHOOKS[],
    w::COUNT_LIVE_WEBHOOKS[],
    w::WEBHOOK_CHANGES["50"],
    w::RECORD_COMPONENT_EVENT["'c1'", "'down'", "'i'", "100000000", "0", "100000000"],
    w::COMPONENT_EVENTS_SINCE["99900000"],
    k::START_WINDOWS["100000000"],
    k::END_WINDOWS["100000000"],
    a::CURRENT_NOTICES["99900000", "10"],
    a::CURRENT_UPDATES["99900000", "10", "1", "10"],
    a::CURRENT_REVISIONS["99900000", "10"],
    a::WINDOWS_SINCE["99900000"],
    a::NOTICES_GENERATION[],
    a::FIRST_PAGE["3"],
    a::PAGE_FROM["'n7'", "3"],
    r::LATEST_OF_NOTICE["'n7'"],
    n::LATEST_SINCE["99900000", "100"],
    r::REVISE_UPDATE["'n7'", "'incident'", "2", "'Fixed.'", "100000000", "'op'", "10"],
    r::COUNT_REVISIONS["'n7'", "2"],
    r::REVISION_LOG["50"],
    s::DECLARE_COMPONENT["'c1'", "'major_outage'", "100000000", "'op'"],
    s::DECLARATIONS_IN_FORCE["'c1'", "'c2'", "'c3'"],
    s::DECLARATION_LOG["50"],
    s::PRUNE_DECLARATIONS["1000000"],
];

/// The statements the triggers of migration 0017 run for each update written or pruned
/// (`NEW.x` and `OLD.x` written as arguments): a notice's row, and the pruned update's corrections,
/// each by its key.
const TRIGGERS: &[Planned] = &[
    trigger(
        "an_update_keeps_its_notice",
        "UPDATE status_notices SET last_seq = $2, open = 0 WHERE notice_id = $1",
        &["'n7'", "9"],
    ),
    trigger(
        "pruning_a_notice_deletes_its_row",
        "DELETE FROM status_notices WHERE notice_id = $1",
        &["'n7'"],
    ),
    trigger(
        "pruning_a_notice_deletes_its_corrections",
        "DELETE FROM status_update_revisions WHERE notice_id = $1 AND seq = $2",
        &["'n7'", "2"],
    ),
];

/// The statements written in each engine's form (`PerEngine`): the batched prunes (`$1` the
/// cutoff, `$2` the batch) and any that lock rows on PostgreSQL.
const PER_ENGINE: &[Planned] = mg_platform::planned![per_engine
    c::PRUNE_CHECKS["1000000", "1000"],
    c::PRUNE_ROLLUPS["1000000", "1000"],
    c::PRUNE_INCIDENTS["1000000", "1000"],
    d::CLAIM_DELIVERIES["100000000", "100060000", "10"],
    d::PRUNE_OLD_DELIVERIES["1000000", "1000"],
    d::PRUNE_FINISHED_DELIVERIES["1000000", "1000", "500"],
    w::PRUNE_COMPONENT_EVENTS["1000000", "1000"],
    w::PRUNE_DELETED_WEBHOOKS["1000000", "1000"],
];

/// [`ROWS`] rows in each history table, three webhooks, then fresh statistics.
async fn seed(db: &Database) {
    let n = numbers(db.backend(), 1, ROWS);
    for statement in [
        format!(
            "{n}INSERT INTO status_checks (component, instance_id, checked_at, healthy, \
                 latency_us, error) \
             SELECT 'c' || (i % 5), 'inst-' || (i % 3), i * 1000, 1, 900, NULL FROM n"
        ),
        format!(
            "{n}INSERT INTO status_rollups (resolution, bucket_start, component, instance_id, \
                 checks, failures, latency_p50_us, latency_p95_us, latency_max_us) \
             SELECT CASE WHEN i % 2 = 0 THEN 'hour' ELSE 'day' END, i * 1000, 'c' || (i % 5), \
                 'inst-' || (i % 3), 60, 0, 900, 1200, 3000 FROM n"
        ),
        format!(
            "{n}INSERT INTO status_incidents (component, instance_id, started_at, ended_at, \
                 first_error) \
             SELECT 'c' || (i % 5), 'inst-' || (i % 3), i * 1000, i * 1000 + 500, 'down' FROM n"
        ),
        format!(
            "{n}INSERT INTO status_notice_updates (notice_id, seq, kind, title, impact, \
                 components, check_incident, starts_at, ends_at, status, body, created_at, \
                 author) \
             SELECT 'n' || (i / 5), i % 5 + 1, 'incident', 'Down', 'major', 'api', NULL, NULL, \
                 NULL, CASE WHEN i % 5 = 4 THEN 'resolved' ELSE 'investigating' END, 'text', \
                 i * 1000, 'op' FROM n"
        ),
        // A correction of every update (a deleted one every tenth), as a history of them is.
        format!(
            "{n}INSERT INTO status_update_revisions (notice_id, seq, rev, body, old_body, \
                 created_at, author) \
             SELECT 'n' || (i / 5), i % 5 + 1, 1, \
                 CASE WHEN i % 10 = 3 THEN NULL ELSE 'fixed' END, 'text', i * 1000, 'op' FROM n"
        ),
        format!(
            "{n}INSERT INTO status_component_declarations (component, seq, status, created_at, \
                 author) \
             SELECT 'c' || (i % 5), i, 'major_outage', i * 1000, 'op' FROM n"
        ),
        format!(
            "{n}INSERT INTO status_component_events (component, seq, state, incident, at, held, \
                 created_at) \
             SELECT 'c' || (i % 5), i, CASE WHEN i % 2 = 0 THEN 'down' ELSE 'up' END, '', \
                 i * 1000, 0, i * 1000 FROM n"
        ),
        "INSERT INTO status_webhooks (id, name, url, format, secret, created_at, created_by) \
         VALUES ('w0', 'a', 'https://example.com', 'json', 's', 0, 'op'), \
             ('w1', 'b', 'https://example.com', 'json', 's', 0, 'op'), \
             ('w2', 'c', 'https://example.com', 'json', 's', 0, 'op')"
            .to_owned(),
        format!(
            "{n}INSERT INTO status_webhook_deliveries (id, webhook_id, event_key, event, body, \
                 state, attempts, next_at, created_at, updated_at) \
             SELECT 'd' || i, 'w' || (i % 3), 'e' || i, 'notice', '{{}}', \
                 CASE WHEN i > 99990 THEN 'pending' ELSE 'delivered' END, 1, i * 1000, \
                 i * 1000, i * 1000 FROM n"
        ),
    ] {
        sqlx::query(&statement)
            .execute(db.pool())
            .await
            .unwrap_or_else(|error| panic!("{statement}: {error}"));
    }
    db.analyze().await.expect("analyze");
}

/// Explains every statement on `db` (seeded here) and fails naming each full scan.
async fn no_statement_reads_a_growing_table_whole(db: &Database) {
    seed(db).await;
    db.assert_no_full_scans(STATEMENTS.iter().chain(PER_ENGINE).chain(TRIGGERS), BOUNDED)
        .await;
}

/// Prunes the whole seeded history: each pruning statement deletes at most a batch, so the
/// seeded thousands take several, and nothing older than the cutoff is left but what a prune
/// keeps (each component's last change; the newest finished deliveries it is told to keep).
async fn pruning_goes_in_batches(db: &Database) {
    let everything = i64::MAX / 2;
    for (name, prune, cutoff, keep, left_after) in [
        ("checks", &c::PRUNE_CHECKS, everything, 0, 0),
        ("rollups", &c::PRUNE_ROLLUPS, everything, 0, 0),
        ("incidents", &c::PRUNE_INCIDENTS, everything, 0, 0),
        (
            "component events",
            &w::PRUNE_COMPONENT_EVENTS,
            everything,
            0,
            5,
        ),
        // The older half, then the finished ones beyond the newest 500 (10 are pending).
        (
            "old deliveries",
            &d::PRUNE_OLD_DELIVERIES,
            ROWS * 500,
            0,
            ROWS / 2 + 1,
        ),
        (
            "finished deliveries",
            &d::PRUNE_FINISHED_DELIVERIES,
            everything,
            500,
            510,
        ),
    ] {
        let left = db.assert_prunes_in_batches(name, prune, cutoff, keep).await;
        assert_eq!(left, left_after, "{name}");
    }
}

mg_platform::plan_tests!(
    no_statement_reads_a_growing_table_whole,
    pruning_goes_in_batches
);

/// The files of the store checked by [`every_statement_of_the_store_is_listed_here`].
const PLANNED_FILES: &[&str] = &[
    "checks.rs",
    "current_notices.rs",
    "declarations.rs",
    "deliveries.rs",
    "notices.rs",
    "revisions.rs",
    "webhooks.rs",
    "window_clock.rs",
];

#[test]
fn every_file_of_the_store_is_checked() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
    for entry in std::fs::read_dir(dir).expect("the store's folder") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        let named = PLANNED_FILES.contains(&name.as_str())
            // No statements: the module's root and the update row's type.
            || ["mod.rs", "update_row.rs"].contains(&name.as_str());
        assert!(named, "src/store/{name}: list its statements in this test");
    }
}

#[test]
fn every_statement_of_the_store_is_listed_here() {
    for (file, source, exempt) in [
        // The multi-row INSERTs of checks and rollups: their VALUES look nothing up.
        (
            "checks.rs",
            include_str!("../src/store/checks.rs"),
            &["&rows_sql"][..],
        ),
        // The pause after a failed delivery: one webhook by its primary key, with a CASE made
        // from the backoff table; and `with_webhook_ids`, which runs the enqueue read it is given
        // (NOTICE_UPDATES_TO_ENQUEUE or COMPONENT_EVENTS_TO_ENQUEUE, both planned above).
        (
            "deliveries.rs",
            include_str!("../src/store/deliveries.rs"),
            &["&pause_sql", "sql"],
        ),
        (
            "current_notices.rs",
            include_str!("../src/store/current_notices.rs"),
            &[],
        ),
        (
            "declarations.rs",
            include_str!("../src/store/declarations.rs"),
            &[],
        ),
        ("notices.rs", include_str!("../src/store/notices.rs"), &[]),
        (
            "revisions.rs",
            include_str!("../src/store/revisions.rs"),
            &[],
        ),
        ("webhooks.rs", include_str!("../src/store/webhooks.rs"), &[]),
        (
            "window_clock.rs",
            include_str!("../src/store/window_clock.rs"),
            &[],
        ),
    ] {
        let unplanned = unplanned_statements(source, &[STATEMENTS, PER_ENGINE].concat(), exempt);
        assert!(
            unplanned.is_empty(),
            "{file} runs statements the plan test does not explain: {unplanned:?}"
        );
    }
}
