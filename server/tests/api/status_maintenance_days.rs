//! Maintenance on the day bars: of the 90 daily points, a day whose checks failed only inside a
//! maintenance window of the component is a maintenance day (its window hours left out of its
//! uptime), a day that failed outside the window too is not (the maintenance noted), and a window
//! of another component changes nothing; the same in `/api/status/page` and in the page that reads
//! without JavaScript.

use mg_domain::notices::{Impact, NoticeKind, NoticeStatus};
use mg_domain::status::Point;
use mg_server::{
    status::store::{
        checks::{Resolution, Rollup},
        notices::UpdateRow,
        StatusQueries,
    },
    time::{DAY_MS, HOUR_MS},
};
use serde_json::Value;

use crate::{
    helpers::TestApp,
    status::{json, T0},
    status_storage::{database, made_up},
};

/// Midnight (UTC) of 2026-11-17, three days before `T0`.
const DAY_A: i64 = T0 - 12 * HOUR_MS - 3 * DAY_MS;
const DAY_B: i64 = DAY_A + DAY_MS;
const DAY_C: i64 = DAY_B + DAY_MS;

/// An hourly rollup of "first" on the database: 60 checks, `failures` of them failed.
fn hour(start: i64, failures: i64) -> Rollup {
    Rollup {
        resolution: Resolution::Hour,
        bucket_start: start,
        component: "db".into(),
        instance_id: "first".into(),
        checks: 60,
        failures,
        latency_p50_us: 1000,
        latency_p95_us: 1000,
        latency_max_us: 1000,
    }
}

/// A maintenance window on `components` over `hours` (`[start, end)`, unix ms).
fn window(id: &str, title: &str, components: &str, (start, end): (i64, i64)) -> UpdateRow {
    UpdateRow {
        notice_id: id.into(),
        seq: 1,
        kind: NoticeKind::Maintenance,
        title: title.into(),
        impact: Impact::Maintenance,
        components: components.into(),
        check_incident: None,
        starts_at: Some(start),
        ends_at: Some(end),
        status: NoticeStatus::Scheduled,
        body: "Planned.".into(),
        created_at: start - DAY_MS,
        author: "ops-1".into(),
        component_status: None,
        edited_at: None,
    }
}

fn day_point(points: &Value, day: i64) -> Point {
    let start = mg_server::time::rfc3339(day);
    let point = points
        .as_array()
        .expect("points")
        .iter()
        .find(|p| p["start"] == start.as_str())
        .unwrap_or_else(|| panic!("a point at {start} in {points}"));
    serde_json::from_value(point.clone()).expect("a point")
}

async fn a_day_failing_only_inside_a_window_is_a_maintenance_day(app: TestApp) {
    let db = database(&app).await;
    // Day A: 5 failed checks at 02:00, inside "Database upgrade" (02:00-03:00).
    // Day B: 5 failed at 02:00 inside "Failover drill", and three hours down outside it (10:00 to
    //        13:00, under an API window, which is not the database's).
    // Day C: 20 failed at 05:00, no window; a window at 08:00 where nothing failed.
    let mut rollups = Vec::new();
    for (day, failed) in [
        (DAY_A, vec![(2, 5)]),
        (DAY_B, vec![(2, 5), (10, 60), (11, 60), (12, 60)]),
        (DAY_C, vec![(5, 20)]),
    ] {
        for h in 0..24 {
            let failures = failed.iter().find(|(at, _)| *at == h).map_or(0, |f| f.1);
            rollups.push(hour(day + h * HOUR_MS, failures));
        }
    }
    // The hours of every viewpoint together, as the roll-up writes them beside each one's own.
    let combined: Vec<Rollup> = rollups
        .iter()
        .map(|r| Rollup {
            instance_id: "+".into(),
            ..r.clone()
        })
        .collect();
    rollups.extend(combined);
    db.status()
        .upsert_status_rollups(&rollups)
        .await
        .expect("rollups");
    let at = |day: i64, from: i64, to: i64| (day + from * HOUR_MS, day + to * HOUR_MS);
    for row in [
        window("m-a", "Database upgrade", "db", at(DAY_A, 2, 3)),
        window("m-b", "Failover drill", "db,api", at(DAY_B, 2, 3)),
        window("m-api", "API move", "api", at(DAY_B, 10, 13)),
        window("m-c", "Quiet change", "db", at(DAY_C, 8, 9)),
    ] {
        assert!(db
            .status()
            .insert_notice(&row, i64::MAX)
            .await
            .expect("window"));
    }
    app.status
        .record(vec![made_up("db", T0, true, 1000)], T0)
        .await;

    let (status, history) = json(app.get("/api/status/history?component=db&range=90d").await).await;
    assert_eq!(status, 200);
    let [a, b, c] = [DAY_A, DAY_B, DAY_C].map(|day| day_point(&history["points"], day));

    assert!(a.in_maintenance(), "only failures inside the window: {a:?}");
    let m = a.maintenance.as_ref().expect("maintenance");
    assert_eq!(
        (m.failures, m.windows.as_slice()),
        (5, &["Database upgrade".to_owned()][..])
    );
    assert_eq!(a.uptime, Some(100.0), "the window's hour is left out");

    assert!(
        !b.in_maintenance(),
        "failures outside the window too: {b:?}"
    );
    let m = b.maintenance.as_ref().expect("the maintenance is noted");
    assert_eq!(
        (m.failures, m.windows.as_slice()),
        (5, &["Failover drill".to_owned()][..])
    );
    let uptime = b.uptime.expect("uptime");
    assert!(
        (86.9..87.0).contains(&uptime),
        "3 of 23 hours down: {uptime}"
    );

    assert!(!c.in_maintenance(), "failures outside any window: {c:?}");
    let m = c.maintenance.as_ref().expect("a window with checks");
    assert_eq!(
        (m.failures, m.windows.as_slice()),
        (0, &["Quiet change".to_owned()][..])
    );
    assert!(c.uptime.expect("uptime") < 99.0, "{c:?}");

    // The API's days have no failed checks: its windows make no maintenance day.
    let (_, api) = json(app.get("/api/status/history?component=api&range=90d").await).await;
    assert!(api["points"]
        .as_array()
        .expect("points")
        .iter()
        .all(|p| p["maintenance"].is_null() || p["maintenance"]["failures"] == 0));

    // The page's answer carries the same points.
    let (_, page) = json(app.get("/api/status/page").await).await;
    let daily = page["history"]
        .as_array()
        .expect("history")
        .iter()
        .find(|h| h["component"] == "db")
        .expect("db")["daily"]["points"]
        .clone();
    assert_eq!(day_point(&daily, DAY_A), a);
    assert_eq!(day_point(&daily, DAY_B), b);

    // And the page without JavaScript lists both days, newest first, saying how each shows.
    let plain = app.get_text("/status/notices").await;
    let a_at = plain
        .find("17 Nov 2026</time></strong>: 5 failed checks during 'Database upgrade' (shown as maintenance).")
        .unwrap_or_else(|| panic!("day A in {plain}"));
    let b_at = plain
        .find("18 Nov 2026</time></strong>: 5 failed checks during 'Failover drill' (checks failed outside the window too")
        .unwrap_or_else(|| panic!("day B in {plain}"));
    assert!(b_at < a_at, "newest first");
    assert!(!plain.contains("'Quiet change'"), "no failed check in it");
}
on_both_backends!(a_day_failing_only_inside_a_window_is_a_maintenance_day);
