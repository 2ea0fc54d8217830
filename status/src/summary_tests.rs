//! The summary's uptime figures beside maintenance windows: only the checks inside a window are
//! excused, the rest of the hour it overlaps still counts.

use mg_domain::{
    notices::{Impact, NoticeKind, NoticeStatus},
    status::Uptime,
};
use mg_platform::time::HOUR_MS;

use crate::{
    snapshot::Snapshot,
    store::{checks::RawCheck, notices::NoticeRow},
    summary::{summarize, Context},
};

/// Half past an hour; the database checked every minute of it by one viewpoint, the first ten
/// minutes failing.
const HOUR: i64 = 1_800_000_000_000 / HOUR_MS * HOUR_MS;
const MINUTE: i64 = 60_000;

fn snapshot(window: (i64, i64)) -> Snapshot {
    let raw = (0..30)
        .map(|i| RawCheck {
            component: "db".into(),
            instance_id: "a".into(),
            checked_at: HOUR + i * MINUTE,
            healthy: i64::from(i >= 10),
            latency_us: 900,
            error: None,
        })
        .collect();
    let row = NoticeRow {
        id: "m1".into(),
        kind: NoticeKind::Maintenance,
        title: "Upgrade".into(),
        impact: Impact::Maintenance,
        components: "db".into(),
        status: NoticeStatus::Scheduled,
        check_incident: None,
        starts_at: Some(window.0),
        ends_at: Some(window.1),
        created_at: HOUR,
        updated_at: HOUR,
        resolved_at: None,
        component_status: None,
    };
    Snapshot {
        raw,
        windows: vec![row],
        ..Snapshot::default()
    }
}

fn uptime_of(window: (i64, i64)) -> Uptime {
    let context = Context {
        now_ms: HOUR + 30 * MINUTE,
        interval_ms: MINUTE,
        checked_here: &["db"],
        page_url: "https://mg.example/apotheosis",
    };
    let summary = summarize(&snapshot(window), &context, "a");
    let db = summary.components.into_iter().find(|c| c.id == "db");
    db.expect("the database's card").uptime
}

#[test]
fn a_window_excuses_the_checks_inside_it_and_only_those() {
    // Scheduled for later in the current hour: no check is inside it, all of them count.
    let later = uptime_of((HOUR + 40 * MINUTE, HOUR + 100 * MINUTE));
    assert_eq!(later.day, Some(66.667));
    assert_eq!(later.week, Some(66.667), "the current hour is not left out");
    // Over the failing minutes: those are excused, the healthy twenty still count.
    let over = uptime_of((HOUR, HOUR + 10 * MINUTE));
    assert_eq!((over.day, over.week), (Some(100.0), Some(100.0)));
    // Over half the healthy minutes: the failures outside it still count.
    let healthy = uptime_of((HOUR + 20 * MINUTE, HOUR + 40 * MINUTE));
    assert_eq!((healthy.day, healthy.week), (Some(50.0), Some(50.0)));
    // Over every check: nothing to measure.
    let all = uptime_of((HOUR - MINUTE, HOUR + 40 * MINUTE));
    assert_eq!((all.day, all.week), (None, None));
}
