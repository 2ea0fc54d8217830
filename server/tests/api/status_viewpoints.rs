//! Viewpoints that come and go: an outage seen by the only viewpoint checking at the time stays in
//! every figure, an incident of a viewpoint that stopped checking ends and its stale checks leave
//! the overall state, a second process under the same `INSTANCE_ID` is noticed (and refuses to run
//! when it started while the first was checking), and rounds keep their schedule while the database
//! is down.

use std::time::{Duration, Instant};

use mg_server::{
    status::{
        store::{
            checks::{IncidentRow, RawCheck, Resolution, Rollup},
            StatusQueries,
        },
        StatusConfig,
    },
    time::HOUR_MS,
};
use serde_json::Value;

use crate::{
    helpers::{spawn_app_with, spawn_beside, TestApp, TestBackend},
    status::{component, json, member, T0},
    status_storage::{database, incident_span, made_up},
};

const MINUTE: i64 = 60_000;

fn check(instance: &str, component: &str, at: i64, healthy: bool) -> RawCheck {
    RawCheck {
        instance_id: instance.into(),
        ..made_up(component, at, healthy, 1000)
    }
}

/// The point of `history` starting at `start`.
fn point_at<'a>(history: &'a Value, start: &str) -> &'a Value {
    member(history, "points", "start", start)
}

async fn an_outage_only_one_viewpoint_saw_stays_in_the_7_and_90_day_figures(app: TestApp) {
    // 12:00-13:00: "first" checks every minute and sees the database down for the first ten;
    // "second" starts at 12:30 and sees it up. Its hourly rollup (0 failures) is stored as its
    // own instance would store it.
    let db = database(&app).await;
    let second: Vec<RawCheck> = (30..60)
        .map(|m| check("second", "db", T0 + m * MINUTE + 5_000, true))
        .collect();
    db.status()
        .insert_status_checks(&second)
        .await
        .expect("second's checks");
    db.status()
        .upsert_status_rollups(&[Rollup {
            resolution: Resolution::Hour,
            bucket_start: T0,
            component: "db".into(),
            instance_id: "second".into(),
            checks: 30,
            failures: 0,
            latency_p50_us: 1000,
            latency_p95_us: 1000,
            latency_max_us: 1000,
        }])
        .await
        .expect("second's rollup");
    for m in 0..60 {
        let at = T0 + m * MINUTE;
        app.status
            .store_only(vec![check("first", "db", at, m >= 10)], at)
            .await;
    }
    // The next round rolls the hour up; a day later its raw checks are out of the summary's
    // window, so the 7- and 90-day figures come from the rollups alone.
    let after = T0 + HOUR_MS + MINUTE;
    app.status
        .store_only(vec![check("first", "db", after, true)], after)
        .await;
    app.status
        .record(
            vec![check("first", "db", T0 + 25 * HOUR_MS, true)],
            T0 + 25 * HOUR_MS,
        )
        .await;

    // Before: an hour's figure was the smallest of the viewpoints' ratios (second's 0 of 30), so
    // the ten minutes only "first" saw were gone from every figure longer than a day.
    let (_, history) = json(app.get("/api/status/history?component=db&range=7d").await).await;
    let hour = point_at(&history, "2026-11-20T12:00:00.000Z");
    assert_eq!(hour["uptime"], 83.333, "10 of 60 minutes down: {hour}");
    let (_, status) = json(app.get("/api/status").await).await;
    let uptime = &component(&status, "db")["uptime"];
    for range in ["7d", "30d", "90d"] {
        let figure = uptime[range].as_f64().expect("a figure");
        assert!(figure < 100.0, "{range}: {uptime}");
    }
    let (_, history) = json(app.get("/api/status/history?component=db&range=90d").await).await;
    let day = point_at(&history, "2026-11-20T00:00:00.000Z");
    assert!(day["uptime"].as_f64().expect("uptime") < 100.0, "{day}");
}
on_both_backends!(an_outage_only_one_viewpoint_saw_stays_in_the_7_and_90_day_figures);

async fn an_incident_of_a_viewpoint_that_stopped_checking_is_closed(app: TestApp) {
    // "old" (an earlier run under another INSTANCE_ID) saw the database fail and opened an
    // incident, then stopped checking at 12:05.
    let db = database(&app).await;
    let old: Vec<RawCheck> = (0..=5)
        .map(|m| check("old", "db", T0 + m * MINUTE, false))
        .collect();
    db.status()
        .insert_status_checks(&old)
        .await
        .expect("old checks");
    db.status()
        .upsert_status_incident(&IncidentRow {
            component: "db".into(),
            instance_id: "old".into(),
            started_at: T0,
            ended_at: None,
            first_error: "made up".into(),
        })
        .await
        .expect("old incident");
    app.status.check_now(T0 + 6 * MINUTE).await;
    let (_, status) = json(app.get("/api/status").await).await;
    assert_eq!(
        status["open_incidents"][0]["viewpoints"],
        serde_json::json!(["old"]),
        "a minute late is not gone"
    );
    // Before: it stayed open (and the page degraded) for as long as its row was kept.
    app.status.check_now(T0 + 15 * MINUTE).await;
    let (_, status) = json(app.get("/api/status").await).await;
    assert_eq!(status["open_incidents"], serde_json::json!([]), "{status}");
    assert_eq!(
        status["recent_incidents"][0]["ended_at"],
        "2026-11-20T12:05:00.000Z"
    );
    let stored = incident_span(&app, "instance_id = 'old'").await;
    assert_eq!(stored, (T0, Some(T0 + 5 * MINUTE)));
}
on_both_backends!(an_incident_of_a_viewpoint_that_stopped_checking_is_closed);

/// The instance "first" runs its rounds at `T0` and 30 s later.
async fn rounds_at_t0_and_30_s(app: &TestApp) {
    app.status.check_now(T0).await;
    app.status.check_now(T0 + 30_000).await;
}

/// `app` has not refused to run: it is still serving.
async fn assert_serves_on(app: &TestApp) {
    assert_eq!(app.status.refusal(), None);
    assert!(!app.run.is_finished());
    assert_eq!(app.get("/health").await.status(), 200);
}

async fn checks_written_by_another_process_under_this_instance_id_are_noticed(app: TestApp) {
    rounds_at_t0_and_30_s(&app).await;
    assert_eq!(app.status.foreign_checks_seen().await, None);
    // Another process named "first" writes its own rounds in between.
    let db = database(&app).await;
    db.status()
        .insert_status_checks(&[check("first", "db", T0 + 45_000, true)])
        .await
        .expect("the other's check");
    app.status.check_now(T0 + 60_000).await;
    assert_eq!(app.status.foreign_checks_seen().await, Some(T0 + 45_000));
}
on_both_backends!(checks_written_by_another_process_under_this_instance_id_are_noticed);

async fn a_second_live_process_under_the_same_instance_id_refuses_to_run(app: TestApp) {
    rounds_at_t0_and_30_s(&app).await;
    // A second server on the same database, also INSTANCE_ID=first, starts 10 s later.
    let second = spawn_beside(&app, |_| {}).await;
    second.status.check_now(T0 + 40_000).await;
    assert_eq!(second.status.refusal(), None, "nothing newer seen yet");
    // The first goes on; the second sees a check under its name it did not write.
    app.status.check_now(T0 + 60_000).await;
    second.status.check_now(T0 + 70_000).await;
    let stopped = tokio::time::timeout(Duration::from_secs(10), second.run)
        .await
        .expect("the second server stops")
        .expect("joined");
    let sentence = stopped.expect_err("it stops with an error").to_string();
    assert!(
        sentence.starts_with("INSTANCE_ID=first is already used by another live instance"),
        "{sentence}"
    );
    assert!(sentence.contains("2026-11-20T12:01:00.000Z"), "{sentence}");
    // Before: both went on, mixing their checks and opening every incident twice. The one that
    // was there first only warns, and serves on.
    app.status.check_now(T0 + 90_000).await;
    assert_eq!(app.status.foreign_checks_seen().await, Some(T0 + 70_000));
    assert_serves_on(&app).await;
}
on_both_backends!(a_second_live_process_under_the_same_instance_id_refuses_to_run);

async fn a_restart_under_the_same_instance_id_is_not_a_duplicate(app: TestApp) {
    // "first" checks, then stops (its process ends); its successor starts 10 s after its last check.
    rounds_at_t0_and_30_s(&app).await;
    let successor = spawn_beside(&app, |_| {}).await;
    for at in [40_000, 70_000, 100_000, 130_000] {
        successor.status.check_now(T0 + at).await;
    }
    assert_eq!(successor.status.foreign_checks_seen().await, None);
    assert_serves_on(&successor).await;
}
on_both_backends!(a_restart_under_the_same_instance_id_is_not_a_duplicate);

async fn a_viewpoint_that_stopped_checking_no_longer_degrades_the_page(app: TestApp) {
    // "second" checks the queue too (it has a queue URL, "first" has not) and sees it down.
    let db = database(&app).await;
    for m in 0..5 {
        let at = T0 + m * MINUTE;
        db.status()
            .insert_status_checks(&[
                check("second", "api", at, true),
                check("second", "db", at, true),
                check("second", "queue", at, false),
            ])
            .await
            .expect("second's checks");
    }
    app.status.check_now(T0 + 4 * MINUTE + 10_000).await;
    let (_, status) = json(app.get("/api/status").await).await;
    assert_eq!(status["state"], "degraded", "the queue is down: {status}");
    // "second" stops at 12:04; "first" goes on checking, and finds everything it checks up.
    app.status.check_now(T0 + 10 * MINUTE).await;
    let (_, status) = json(app.get("/api/status").await).await;
    // Before: the queue, which nobody checks any more, held the page at degraded for as long as
    // second's rows were kept.
    assert_eq!(status["state"], "operational", "{status}");
    let queue = component(&status, "queue");
    assert_eq!(queue["state"], "unknown", "no longer checked: {queue}");
    assert_eq!(queue["viewpoints"][0]["fresh"], false);
    let second = status["viewpoints"]
        .as_array()
        .expect("viewpoints")
        .iter()
        .find(|v| v["instance_id"] == "second")
        .expect("second is listed");
    assert_eq!(second["fresh"], false);
    let (_, statuspage) = json(app.get("/api/v2/status.json").await).await;
    assert_eq!(statuspage["status"]["indicator"], "none", "{statuspage}");
}
on_both_backends!(a_viewpoint_that_stopped_checking_no_longer_degrades_the_page);

/// A TCP relay to PostgreSQL that can be cut: then connections break and new ones are refused,
/// as when the database host goes away (a refused connection is retried until the pool's timeout).
struct Relay {
    port: u16,
    tasks: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Relay {
    async fn to(target: std::net::SocketAddr) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind relay");
        let port = listener.local_addr().expect("addr").port();
        let tasks = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let held = tasks.clone();
        let accept = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let relay = tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                held.lock().expect("tasks").push(relay.abort_handle());
            }
        });
        tasks.lock().expect("tasks").push(accept.abort_handle());
        Self { port, tasks }
    }

    fn cut(&self) {
        for task in self.tasks.lock().expect("tasks").drain(..) {
            task.abort();
        }
    }
}

#[tokio::test]
async fn rounds_keep_their_schedule_while_postgres_is_unreachable() {
    let Some(admin) = crate::helpers::postgres_admin_url() else {
        return;
    };
    let target = url::Url::parse(&admin).expect("admin url");
    let target = std::net::SocketAddr::new(
        target
            .host_str()
            .and_then(|h| h.parse().ok())
            .unwrap_or([127, 0, 0, 1].into()),
        target.port().unwrap_or(5432),
    );
    let relay = Relay::to(target).await;
    let port = relay.port;
    let Some(app) = spawn_app_with(TestBackend::Postgres, move |config| {
        let mut url = url::Url::parse(&config.database_url).expect("database url");
        url.set_port(Some(port)).expect("port");
        config.database_url = url.to_string();
        config.status = StatusConfig {
            check_interval: Duration::from_secs(2),
            scheduler: true,
            ..StatusConfig::manual("first")
        };
    })
    .await
    else {
        return;
    };
    // A first round through the relay, then the cut.
    rounds_within(&app, 1, Duration::from_secs(10)).await;
    relay.cut();
    // The round under way when it went ends, then the count starts. (The real pool's timeouts
    // are the subject here: they are waited for, not stood in for.)
    rounds_within(&app, 1, Duration::from_secs(15)).await;
    // Before: every round waited out the pool's 3 s timeout on each of its calls (about 10 s), so
    // three rounds took half a minute; one every 2 s, they take 4 to 6 s.
    let took = rounds_within(&app, 3, Duration::from_secs(8)).await;
    eprintln!("three rounds in {took:?} with the database unreachable");
    let (code, status) = json(app.get("/api/status").await).await;
    assert_eq!(code, 200);
    assert_eq!(component(&status, "db")["state"], "down");
    crate::helpers::drop_postgres_database(&app.database_url).await;
}

/// Waits until `app` has finished `count` more rounds, polling; how long they took. Fails when
/// they take longer than `deadline`.
async fn rounds_within(app: &TestApp, count: u64, deadline: Duration) -> Duration {
    let (before, started) = (app.status.rounds(), Instant::now());
    while app.status.rounds() - before < count {
        assert!(
            started.elapsed() < deadline,
            "{} of {count} rounds in {:?} at one every 2 s",
            app.status.rounds() - before,
            started.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    started.elapsed()
}

/// Three viewpoints' full retention windows at the default interval: 48 h of raw checks and 90
/// days of hourly and daily rollups each.
async fn fill_three_full_windows(app: &TestApp, now: i64) {
    let db = database(app).await;
    let mut checks = Vec::new();
    let mut rollups = Vec::new();
    for instance in ["first", "second", "third"] {
        let mut at = now - 48 * HOUR_MS;
        while at < now {
            for c in ["api", "db", "queue"] {
                checks.push(check(instance, c, at, at % 7 != 0));
            }
            at += 30_000;
        }
        for (resolution, period, count) in [
            (Resolution::Hour, HOUR_MS, 90 * 24),
            (Resolution::Day, 24 * HOUR_MS, 90),
        ] {
            for i in 1..=count {
                for c in ["api", "db", "queue"] {
                    rollups.push(Rollup {
                        resolution,
                        bucket_start: now - now % period - i * period,
                        component: c.into(),
                        instance_id: instance.into(),
                        checks: period / 30_000,
                        failures: i % 3,
                        latency_p50_us: 1234,
                        latency_p95_us: 56_789,
                        latency_max_us: 1_234_567,
                    });
                }
            }
        }
    }
    db.status()
        .insert_status_checks(&checks)
        .await
        .expect("raw");
    db.status()
        .upsert_status_rollups(&rollups)
        .await
        .expect("rollups");
}

async fn health_answers_promptly_while_a_round_renders_a_large_history(app: TestApp) {
    let now = T0;
    fill_three_full_windows(&app, now).await;
    // And notices at the operators' limits: the first round makes and compresses every answer
    // whole (about 1.6 MB), a rendering long enough to tell a blocked runtime from a loaded one.
    crate::status_answer_sizes::seed(&app).await;
    // A prober on its own thread and runtime, so its clock runs while the server's runtime (the
    // test's single thread) is busy: whatever a round does on that runtime, /health waits for.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let prober = {
        let (stop, url) = (stop.clone(), format!("{}/health", app.address));
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("prober runtime");
            runtime.block_on(async move {
                let client = reqwest::Client::builder()
                    .timeout(Duration::from_secs(30))
                    .build()
                    .expect("client");
                let mut slowest = Duration::ZERO;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let started = Instant::now();
                    let response = client.get(&url).send().await.expect("health");
                    assert_eq!(response.status(), 200);
                    slowest = slowest.max(started.elapsed());
                    // Real requests' latency is the subject: a probe every 5 ms.
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                slowest
            })
        })
    };
    // The prober's first requests (real connections) before the rounds start.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut rendering = Duration::ZERO;
    for i in 1..=3 {
        let report = app.status.check_now(now + i * 30_000).await;
        rendering = rendering.max(report.render_time);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    // Joined off this thread: the server on it answers the prober's last request meanwhile.
    let slowest = tokio::task::spawn_blocking(move || prober.join().expect("prober"))
        .await
        .expect("join");
    eprintln!("the longest rendering of a round over three full windows took {rendering:?}; the slowest /health meanwhile {slowest:?}");
    // Before: summarising, rendering and compressing ran on the runtime, and a /health request
    // waited for all of it. (Compared with the rendering, not a fixed time: this machine is shared.)
    assert!(
        rendering > Duration::from_millis(200),
        "{rendering:?}: too little to tell"
    );
    assert!(
        slowest < rendering / 2,
        "/health took {slowest:?} while a rendering took {rendering:?}"
    );
}
on_both_backends!(health_answers_promptly_while_a_round_renders_a_large_history);
