use super::compose::{bars_summary, day_bars};
use super::view::tone_of;
use super::wording::{
    clock, decimal, duration, format_day, format_ms, format_uptime, iso_day, number, parse_time,
    stamp, two,
};
use super::*;
use crate::health::{
    HealthValue::*, API_CHECK_FAILED, DB_CHECK_FAILED, POLL_INTERVAL_MS, QUEUE_CHECK_FAILED,
};
use crate::input::read_json;
use crate::text::join;
use mg_domain::calendar::{civil_from_days, DAY_MS};
use proptest::prelude::*;

/// 2026-11-25T12:00:00Z.
pub(super) const NOON: u64 = 1_795_608_000_000;

fn day_start(days_back: i64) -> String {
    let day = NOON as i64 / DAY_MS - days_back;
    join(&[&iso_day(day), "T00:00:00.000Z"])
}

/// A page answer as the server writes it: `days` daily points up to today, each 100% up except
/// today at `today_uptime`, one incident on yesterday; 96 recent points of 1.5 ms.
pub(super) fn page_json(
    updated_at: &str,
    days: i64,
    today_uptime: f64,
    since: Option<&str>,
) -> String {
    let daily: Vec<String> = (0..days)
        .rev()
        .map(|back| {
            let uptime = if back == 0 { today_uptime } else { 100.0 };
            let incidents = u32::from(back == 1);
            serde_json::json!({"start": day_start(back), "checks": 10, "failures": 0,
                "uptime": uptime, "latency_p50_ms": 1.0, "latency_p95_ms": 2.0, "incidents": incidents})
            .to_string()
        })
        .collect();
    let recent: Vec<String> = (0..96)
        .map(|i| {
            let start = NOON as i64 - (95 - i) * 900_000;
            serde_json::json!({"start": crate_time(start), "checks": 1, "failures": 0, "uptime": 100.0,
                "latency_p50_ms": 1.5, "latency_p95_ms": 2.25})
            .to_string()
        })
        .collect();
    let history = ["api", "db"]
        .map(|id| {
            join(&[
                r#"{"component":""#,
                id,
                r#"","daily":{"points":["#,
                &daily.join(","),
                r#"]},"recent":{"points":["#,
                &recent.join(","),
                "]}}",
            ])
        })
        .join(",");
    let since = since.map_or("null".to_owned(), |s| join(&["\"", s, "\""]));
    join(&[
        r#"{"summary":{"state":"operational","updated_at":""#,
        updated_at,
        r#"","components":[{"id":"api","name":"API","state":"operational","uptime":{"24h":100,"7d":99.996,"30d":99.5,"90d":null},"latency_24h":{"p50_ms":1.234,"p95_ms":12.34},"last_checked_at":"2026-11-25T11:59:30.000Z"},{"id":"db","name":"Database","state":"operational","uptime":{"24h":100,"7d":100,"30d":100,"90d":100},"latency_24h":{"p50_ms":null,"p95_ms":null},"last_checked_at":null}],"open_incidents":[{"id":"i2","component":"db","component_name":"Database","started_at":"2026-11-25T11:00:00.000Z","ended_at":null,"first_error":"timeout"}],"recent_incidents":[{"id":"i1","component":"api","component_name":"API","started_at":"2026-11-24T10:00:00.000Z","ended_at":"2026-11-24T11:05:20.000Z","first_error":"503"}]},"history":["#,
        &history,
        r#"],"since":"#,
        &since,
        "}",
    ])
}

fn crate_time(ms: i64) -> String {
    let (y, m, d) = civil_from_days(ms.div_euclid(DAY_MS));
    join(&[
        &number(y as u64),
        "-",
        &two(m),
        "-",
        &two(d),
        "T",
        &clock(ms),
        ":00.000Z",
    ])
}

pub(super) fn answer(
    machine: &mut StatusPageMachine,
    round: u32,
    status: u16,
    etag: &str,
    body: &str,
) {
    machine.status_result(
        round,
        Some(status),
        Some(etag.to_owned()),
        read_json(body),
        None,
    );
}

/// A machine whose first round, at noon, was answered with 90 days of history.
fn loaded() -> StatusPageMachine {
    let mut machine = StatusPageMachine::new(false, false, None);
    machine.poll(NOON);
    answer(
        &mut machine,
        1,
        200,
        "\"t\"",
        &page_json("2026-11-25T11:59:30.000Z", 90, 100.0, None),
    );
    machine
}

#[test]
fn a_round_is_the_two_checks_and_one_status_request_every_30_s() {
    let mut machine = StatusPageMachine::new(false, false, None);
    let first = machine.poll(NOON).expect("the first round runs on load");
    assert_eq!(
        first,
        RoundPlan {
            round: 1,
            check_api: true,
            check_db: true,
            queue_url: None,
            status_path: Some("/api/status/page".into()),
            if_none_match: None,
            notices_path: Some("/status/notices/list".into()),
            notices_if_none_match: None,
        }
    );
    assert_eq!(machine.next_deadline(), Some(NOON + 30_000));
    assert_eq!(machine.poll(NOON + 29_999), None);
    answer(
        &mut machine,
        1,
        200,
        "\"t1\"",
        &page_json("2026-11-25T11:59:30.000Z", 90, 100.0, None),
    );
    let second = machine.poll(NOON + 30_000).expect("due");
    assert_eq!(
        second.status_path.as_deref(),
        Some("/api/status/page?since=2026-11-25T11%3A59%3A30.000Z")
    );
    assert_eq!(second.if_none_match.as_deref(), Some("\"t1\""));
    assert_eq!(machine.next_deadline(), Some(NOON + 60_000));
}

#[test]
fn a_304_keeps_the_page_and_an_increment_is_merged_by_bucket() {
    let mut machine = StatusPageMachine::new(false, false, None);
    machine.poll(NOON);
    answer(
        &mut machine,
        1,
        200,
        "\"t1\"",
        &page_json("2026-11-25T11:59:30.000Z", 120, 100.0, None),
    );
    let before = machine.view();
    let bars = &before.cards[0].history.as_ref().expect("history").bars;
    assert_eq!(bars.len(), DAYS);
    assert_eq!(
        bars[DAYS - 1].label,
        "25 Nov 2026: 100% uptime, 0 incidents"
    );
    assert_eq!(bars[DAYS - 2].detail, "100% uptime, 1 incident");

    machine.poll(NOON + 30_000);
    let version = machine.view_version();
    machine.status_result(2, Some(304), None, None, None);
    assert_eq!(machine.view(), before, "a 304 changes nothing shown");
    assert_eq!(
        machine.view_version(),
        version,
        "so the page renders nothing"
    );
    assert_eq!(
        machine
            .poll(NOON + 60_000)
            .and_then(|p| p.if_none_match)
            .as_deref(),
        Some("\"t1\"")
    );

    // The increment holds today only: today's bar changes, the other 89 stay.
    answer(
        &mut machine,
        3,
        200,
        "\"t2\"",
        &page_json(
            "2026-11-25T12:00:30.000Z",
            1,
            97.5,
            Some("2026-11-25T11:59:30.000Z"),
        ),
    );
    let after = machine.view();
    let bars = &after.cards[0].history.as_ref().expect("history").bars;
    assert_eq!(bars.len(), DAYS);
    assert_eq!(bars[DAYS - 1].tone, Tone::Minor);
    assert_eq!(bars[DAYS - 1].detail, "97.5% uptime, 0 incidents");
    assert_eq!(bars[0].tone, Tone::Up, "older days are kept");
    assert_eq!(
        machine.history[0].daily.len(),
        DAYS,
        "only 90 days are held"
    );
    assert_eq!(
        machine
            .poll(NOON + 90_000)
            .and_then(|p| p.if_none_match)
            .as_deref(),
        Some("\"t2\"")
    );
}

#[test]
fn a_failed_status_request_keeps_the_last_page_and_says_why_before_the_first() {
    let mut machine = StatusPageMachine::new(false, false, None);
    machine.poll(NOON);
    let loading = machine.view();
    assert_eq!(loading.cards[0].history_message, "Loading history…");
    assert_eq!(
        loading.incidents_message.as_deref(),
        Some("Loading incidents…")
    );
    machine.status_result(
        1,
        Some(503),
        None,
        None,
        read_json(r#"{"error":"Database unavailable"}"#),
    );
    let failed = machine.view();
    assert_eq!(
        failed.cards[0].history_message,
        "History unavailable right now (Database unavailable). The live state above still updates every 30 seconds."
    );
    assert_eq!(
        failed.incidents_message.as_deref(),
        Some("The incident list is unavailable right now.")
    );
    machine.poll(NOON + 30_000);
    answer(
        &mut machine,
        2,
        200,
        "\"t\"",
        &page_json("2026-11-25T11:59:30.000Z", 90, 100.0, None),
    );
    machine.poll(NOON + 60_000);
    machine.status_result(3, None, None, None, None);
    assert!(
        machine.view().cards[0].history.is_some(),
        "the last page is kept"
    );
}

#[test]
fn the_cards_say_what_the_server_measured() {
    let machine = loaded();
    let view = machine.view();
    let api = &view.cards[0];
    assert_eq!(api.checked_at.as_deref(), Some("2026-11-25T11:59:30.000Z"));
    assert_eq!(api.checked_clock.as_deref(), Some("11:59 UTC"));
    let uptime: Vec<(&str, &str)> = api
        .uptime
        .iter()
        .map(|c| (c.label.as_str(), c.value.as_str()))
        .collect();
    assert_eq!(
        uptime,
        [
            ("24 h", "100%"),
            ("7 days", "99.99%"),
            ("30 days", "99.5%"),
            ("90 days", "—")
        ]
    );
    let history = api.history.as_ref().expect("history");
    assert_eq!(
        (history.p50_text.as_str(), history.p95_text.as_str()),
        ("1.23 ms", "12.3 ms")
    );
    assert_eq!(history.latency.len(), RECENT_BUCKETS);
    assert_eq!(history.latency[95].clock, "12:00");
    assert_eq!(history.latency[95].p95_text, "2.25 ms");
    assert_eq!(
        history.bars_summary,
        "API, last 90 days: uptime not known (checks inside maintenance windows left out), 90 days with checks, 1 with incidents, 0 in maintenance, lowest day 28 Aug 2026 at 100%."
    );
    let db = &view.cards[1];
    assert_eq!(db.history.as_ref().map(|h| h.p50_text.as_str()), Some("—"));
    assert_eq!(db.checked_clock, None);
}

#[test]
fn incidents_are_phrased_with_their_times_and_length() {
    let machine = loaded();
    let view = machine.view();
    assert_eq!(view.incidents_message, None);
    let [open, resolved] = &view.incidents[..] else {
        panic!("two incidents")
    };
    assert_eq!(
        (
            open.state.as_str(),
            open.started.as_str(),
            open.tail.as_str()
        ),
        ("Ongoing", "25 Nov, 11:00", " UTC, still open")
    );
    assert!(open.ongoing);
    assert_eq!(
        (
            resolved.state.as_str(),
            resolved.started.as_str(),
            resolved.ended.as_str(),
            resolved.tail.as_str()
        ),
        (
            "Resolved",
            "24 Nov, 10:00",
            "24 Nov, 11:05",
            " UTC (1 h 5 min)"
        )
    );
    assert_eq!(duration(0, 10_000), "1 min", "at least a minute");
    assert_eq!(duration(0, 45 * 60_000), "45 min");
}

#[test]
fn the_queue_is_unknown_without_a_url_healthy_on_2xx_and_unhealthy_on_error() {
    let mut without = StatusPageMachine::new(false, false, None);
    let plan = without.poll(NOON).expect("load");
    assert_eq!(plan.queue_url, None);
    assert_eq!(
        without.queue_result(1, Some(200)),
        None,
        "nothing was asked"
    );
    let card = &without.view().cards[2];
    assert!(card.unchecked, "the short shape, to reserve its height");
    assert_eq!(
        card.note,
        "Waiting for the server to say whether this deployment checks a Telekinesis queue.",
        "no words before the server's"
    );
    assert_eq!(
        without.live()[2].label,
        "Unknown",
        "this browser cannot check it"
    );

    let mut with = StatusPageMachine::new(false, false, Some("http://127.0.0.1:9/q".into()));
    let plan = with.poll(NOON).expect("load");
    assert_eq!(plan.queue_url.as_deref(), Some("http://127.0.0.1:9/q"));
    assert_eq!(with.live()[2].label, "Checking", "asked, not answered yet");
    assert_eq!(with.queue_result(1, Some(204)), None);
    assert_eq!(with.live()[2].label, "Healthy");
    with.poll(NOON + 30_000);
    assert_eq!(with.queue_result(2, Some(500)), Some(QUEUE_CHECK_FAILED));
    assert_eq!(with.health().2, Unhealthy);
    with.poll(NOON + 60_000);
    assert_eq!(with.queue_result(3, None), Some(QUEUE_CHECK_FAILED));
    assert_eq!(with.live()[2].label, "Unhealthy");
}

#[test]
fn live_checks_follow_the_spec_and_late_answers_are_dropped() {
    let mut machine = StatusPageMachine::new(false, false, None);
    machine.poll(NOON);
    assert_eq!(machine.live()[0].label, "Checking");
    assert_eq!(machine.api_result(1, Some(200)), None);
    assert_eq!(machine.db_result(1, Some(503)), Some(DB_CHECK_FAILED));
    machine.poll(NOON + 30_000);
    assert_eq!(machine.api_result(1, None), None, "round 1 is over");
    assert_eq!(machine.health(), (Healthy, Unhealthy, Unknown));
    assert_eq!(machine.api_result(2, None), Some(API_CHECK_FAILED));
    assert_eq!(machine.health().0, Unhealthy);
}

#[test]
fn an_ethereal_deployment_asks_nothing_of_the_api() {
    let mut machine = StatusPageMachine::new(true, false, None);
    let plan = machine.poll(NOON).expect("load");
    assert!(!plan.check_api && !plan.check_db);
    assert_eq!(plan.status_path, None);
    assert_eq!(plan.if_none_match, None);
    let view = machine.view();
    assert!(!view.show_incidents);
    assert_eq!(machine.live()[0].label, "Not applicable");
    assert_eq!(
        view.cards[0].note,
        "Ethereal deployments have no API, so nothing is checked."
    );
    let forced = StatusPageMachine::new(true, true, None)
        .poll(NOON)
        .expect("load");
    assert!(forced.check_api && forced.status_path.is_some());
}

#[test]
fn numbers_read_as_the_page_shows_them() {
    assert_eq!(format_uptime(Some(99.996)).as_deref(), Some("99.99%"));
    assert_eq!(format_uptime(Some(100.0)).as_deref(), Some("100%"));
    assert_eq!(format_uptime(Some(99.5)).as_deref(), Some("99.5%"));
    assert_eq!(format_uptime(Some(0.0)).as_deref(), Some("0%"));
    assert_eq!(format_uptime(None), None);
    assert_eq!(format_uptime(Some(f64::NAN)), None);
    assert_eq!(format_ms(Some(1.0)), "1.00 ms");
    assert_eq!(format_ms(Some(145.4)), "145 ms");
    assert_eq!(format_ms(None), "—");
    assert_eq!(tone_of(Some(99.9)), Tone::Up);
    assert_eq!(tone_of(Some(95.0)), Tone::Minor);
    assert_eq!(tone_of(Some(94.999)), Tone::Down);
    assert_eq!(format_day(NOON as i64 / DAY_MS), "25 Nov 2026");
    assert_eq!(stamp(NOON as i64 + 5 * 60_000), "25 Nov, 12:05");
}

#[test]
fn without_answers_every_bar_is_no_data_and_the_window_ends_today() {
    let bars = day_bars(&[], NOON);
    assert_eq!(bars.len(), DAYS);
    assert_eq!(bars[DAYS - 1].date, "2026-11-25");
    assert_eq!(bars[0].date, "2026-08-28");
    assert!(bars
        .iter()
        .all(|b| b.tone == Tone::None && b.detail == "no data"));
    assert_eq!(
        bars_summary("API", &bars, None),
        "API: no checks recorded in the last 90 days yet."
    );
}

#[test]
fn failures_only_inside_a_window_make_a_maintenance_day_and_others_note_it() {
    use mg_domain::status::{DayMaintenance, Point};
    let day = |back: i64, failures: i64, uptime: Option<f64>, in_windows: i64| Point {
        start: day_start(back),
        checks: 1440,
        failures,
        uptime,
        incidents: Some(1),
        maintenance: (in_windows > 0).then(|| DayMaintenance {
            failures: in_windows,
            windows: vec!["Database upgrade".into(), "Failover".into()],
        }),
        ..Point::default()
    };
    let bars = day_bars(
        &[
            day(2, 2, Some(100.0), 2),
            day(1, 60, Some(90.0), 2),
            day(0, 2, None, 2),
        ],
        NOON,
    );
    let [only, both, whole] = [&bars[DAYS - 3], &bars[DAYS - 2], &bars[DAYS - 1]];
    assert_eq!(only.tone, Tone::Maintenance);
    assert_eq!(
        only.detail,
        "Maintenance: 2 failed checks during 'Database upgrade', 'Failover', 1 incident"
    );
    assert_eq!(both.tone, Tone::Down, "failures outside the window too");
    assert_eq!(
        both.detail,
        "90% uptime, 1 incident; Maintenance: 2 failed checks during 'Database upgrade', 'Failover'"
    );
    assert_eq!(
        whole.tone,
        Tone::Maintenance,
        "every checked hour in a window"
    );
    assert!(bars_summary("Database", &bars, Some(99.0)).contains(
        "99% uptime (checks inside maintenance windows left out), 3 days with checks, 3 with \
         incidents, 2 in maintenance, lowest day"
    ));
}

proptest! {
    #[test]
    fn times_read_back_as_written(ms in 0i64..4_102_444_800_000) {
        let text = {
            let (y, m, d) = civil_from_days(ms.div_euclid(DAY_MS));
            let in_day = ms.rem_euclid(DAY_MS);
            join(&[&number(y as u64), "-", &two(m), "-", &two(d), "T", &two(in_day / 3_600_000), ":",
                &two(in_day / 60_000 % 60), ":", &two(in_day / 1000 % 60), ".",
                &decimal((in_day % 1000) as u64 + 1000, 0, false)[1..], "Z"])
        };
        prop_assert_eq!(parse_time(&text), Some(ms));
    }

    #[test]
    fn any_sequence_of_answers_keeps_90_bars_and_the_schedule(
        events in proptest::collection::vec((0u8..5, 0u64..100_000, proptest::option::of(0u16..600)), 0..30)
    ) {
        let mut machine = StatusPageMachine::new(false, false, Some("http://127.0.0.1:9/q".into()));
        let mut now = NOON;
        for (kind, step, status) in events {
            now += step;
            let round = machine.round;
            match kind {
                0 => { machine.poll(now); }
                1 => { machine.api_result(round, status); }
                2 => { machine.queue_result(round, status); }
                3 => answer(&mut machine, round, status.unwrap_or(200), "\"x\"",
                    &page_json("2026-11-25T11:59:30.000Z", 3, 99.0, None)),
                _ => { machine.status_result(round, status, None, None, None); }
            }
            if let Some(at) = machine.next_deadline() { prop_assert!(at <= now + POLL_INTERVAL_MS); }
            for card in machine.view().cards {
                if let Some(history) = card.history {
                    prop_assert_eq!(history.bars.len(), DAYS);
                }
            }
        }
    }
}
