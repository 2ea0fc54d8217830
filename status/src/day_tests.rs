//! The day's figures kept from round to round: a round computes only the buckets and quarters its
//! checks changed, and what it keeps is what a build from nothing gives, after late checks, checks
//! aging out, a new maintenance window and at a bucket length that does not nest in quarter hours.

use mg_domain::notices::{Impact, NoticeKind, NoticeStatus};
use mg_platform::time::HOUR_MS;

use crate::{
    day::{DayFigures, QUARTER_HOUR_MS},
    snapshot::Snapshot,
    store::{checks::RawCheck, notices::NoticeRow},
};

const START: i64 = 1_800_000_000_000 / HOUR_MS * HOUR_MS;
const ROUND: i64 = 30_000;
const COMPONENTS: [&str; 2] = ["api", "db"];

/// Round `round` of viewpoints `v0`..`v4` (`v4` stops after round 200), checks failing and
/// latencies spread by a fixed rule.
fn round(round: i64) -> Vec<RawCheck> {
    let mut checks = Vec::new();
    for v in 0..5_i64 {
        if v == 4 && round > 200 {
            continue;
        }
        for (c, component) in COMPONENTS.iter().enumerate() {
            let n = round * 31 + v * 7 + c as i64;
            checks.push(RawCheck {
                component: (*component).into(),
                instance_id: format!("v{v}"),
                checked_at: START + round * ROUND + v * 1_300,
                healthy: i64::from(n % 11 != 0),
                latency_us: (n * 7_919) % 4_000 + 100,
                error: None,
            });
        }
    }
    checks
}

fn day(rounds: std::ops::Range<i64>) -> Snapshot {
    Snapshot {
        raw: rounds.flat_map(round).collect(),
        ..Snapshot::default()
    }
}

/// Everything the summary and the series read of `day`, a line a figure.
fn read(day: &DayFigures) -> Vec<String> {
    let mut lines = vec![format!("last seen {:?}", day.last_seen())];
    for id in COMPONENTS {
        let Some(c) = day.component(id) else {
            lines.push(format!("{id}: none"));
            continue;
        };
        lines.extend(c.downtime().iter().map(|b| format!("{id} bucket {b:?}")));
        lines.extend(
            c.downtime_outside_windows()
                .iter()
                .map(|b| format!("{id} outside {b:?}")),
        );
        lines.extend((0..24).map(|q| {
            let start = START + q * QUARTER_HOUR_MS;
            format!("{id} quarter {start} {:?}", c.quarter(start))
        }));
        lines.extend(c.latest().values().map(|l| format!("{id} latest {l:?}")));
        lines.push(format!("{id} latency {:?}", c.latency()));
        lines.extend(c.hours().map(|h| format!("{id} hour {h:?}")));
        lines.extend(c.unrolled().iter().flat_map(|(hour, cell)| {
            let mut cell: Vec<_> = cell.iter().collect();
            cell.sort_by_key(|(viewpoint, _)| viewpoint.as_str());
            cell.into_iter()
                .map(move |(viewpoint, a)| format!("{id} unrolled {hour} {viewpoint} {a:?}"))
        }));
    }
    lines
}

/// `kept` and `fresh` read alike (the first line that differs, if any, is the message).
fn same(kept: &DayFigures, fresh: &DayFigures, what: &str) {
    let (kept, fresh) = (read(kept), read(fresh));
    let differs = kept.iter().zip(&fresh).find(|(k, f)| k != f);
    assert!(
        differs.is_none() && kept.len() == fresh.len(),
        "{what}: kept {differs:?} ({} lines, fresh {})",
        kept.len(),
        fresh.len()
    );
}

fn window(start: i64, end: i64) -> NoticeRow {
    NoticeRow {
        id: "m1".into(),
        kind: NoticeKind::Maintenance,
        title: "Upgrade".into(),
        impact: Impact::Maintenance,
        components: "api".into(),
        status: NoticeStatus::Scheduled,
        check_incident: None,
        starts_at: Some(start),
        ends_at: Some(end),
        created_at: START,
        updated_at: START,
        resolved_at: None,
        component_status: None,
    }
}

#[test]
fn a_round_computes_only_the_bucket_and_quarter_its_checks_fell_in() {
    let bucket = 60_000;
    let last = DayFigures::build(day(0..300).parts(), bucket, None);
    assert!(last.computed() > 2 * 150, "{}", last.computed());
    let now = day(0..301);
    let next = DayFigures::build(now.parts(), bucket, Some(last));
    // One bucket and one quarter of each component.
    assert_eq!(next.computed(), 2 * COMPONENTS.len());
    same(
        &next,
        &DayFigures::build(now.parts(), bucket, None),
        "the next round",
    );
}

#[test]
fn late_checks_aged_out_checks_and_a_new_window_change_what_they_touch() {
    for bucket in [60_000, 7 * 60_000] {
        let before = day(0..300);
        let last = DayFigures::build(before.parts(), bucket, None);
        let mut now = day(10..301);
        let mut late = round(100);
        for check in &mut late {
            check.checked_at += 5_000;
            check.healthy = 0;
        }
        now.raw.extend(late);
        now.windows = vec![window(START + HOUR_MS, START + HOUR_MS + 17 * 60_000)];
        let kept = DayFigures::build(now.parts(), bucket, Some(last));
        let fresh = DayFigures::build(now.parts(), bucket, None);
        same(&kept, &fresh, &format!("bucket {bucket}"));
        assert!(kept.computed() < fresh.computed(), "bucket {bucket}");
        // The late failures count: not the figures of the day without them.
        let without = DayFigures::build(day(10..301).parts(), bucket, None);
        assert_ne!(read(&kept), read(&without));
    }
}
