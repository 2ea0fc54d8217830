//! Status history: this instance checks its components on a schedule, stores the results,
//! rolls them up, opens and closes incidents, and publishes the status answers from memory.
//!
//! A round (`check_now`): run the checks -> feed the incident tracker -> write the checks and
//! incident changes (held in a bounded queue while the database is away, written when it returns)
//! -> roll up the hours and days this instance finished writing -> prune once an hour -> reload the
//! snapshot (every viewpoint's rows) -> close the incidents of viewpoints that are gone, and look
//! for another process checking under this `INSTANCE_ID` (`duplicates`: this one stops if it
//! started while the other was checking, else warns) -> recompute the summary and re-render every
//! answer on the blocking pool (it is CPU work: summaries, JSON, SVG, gzip).
//!
//! The database part of a round has a time budget, and a round skips it once the database failed
//! (this round's own check of it, or any call), so rounds keep their schedule through an outage.

pub mod badge;
pub mod checks;
mod db_window;
pub mod duplicates;
pub mod feed;
pub mod incidents;
pub mod render;
pub mod rollup;
pub mod series;
pub mod statuspage;
pub mod store;
pub mod summary;

use std::{
    collections::{BTreeSet, VecDeque},
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, RwLock,
    },
    time::{Duration, Instant},
};

pub use crate::config::status::StatusConfig;

use self::{
    checks::Checker,
    db_window::{off_runtime, DbWindow, DB_BUDGET},
    duplicates::{DuplicateInstance, NameWatch},
    incidents::IncidentTracker,
    render::Published,
    rollup::{agreed_rollups, floor, rollups_of},
    store::{IncidentRow, RawCheck, DAY_MS, HOUR_MS, RAW_RETENTION_MS, ROLLUP_RETENTION_MS},
    summary::{Context, Snapshot},
};
use crate::db::Database;

/// Checks held in memory while the database is away: 10,000 is about 27 hours of an outage at the
/// default interval with three components. Beyond it the oldest are dropped (and counted).
pub const PENDING_CHECKS_LIMIT: usize = 10_000;
/// Incident changes held in memory while the database is away.
pub const PENDING_INCIDENTS_LIMIT: usize = 1_000;
/// Incidents read into the summary (open ones and those ended in the last 90 days).
const INCIDENTS_READ_LIMIT: i64 = 200;

/// What a round of checks did, for tests and logs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundReport {
    /// Checks this round made.
    pub checked: usize,
    /// Checks (this round's and earlier held ones) written to the database.
    pub written: usize,
    /// Checks still held in memory because the database did not take them.
    pub pending: usize,
    /// Checks dropped because the in-memory queue was full (since start).
    pub dropped: u64,
    /// Hourly and daily rollup rows written.
    pub rolled_up: usize,
    /// Time the summary and every answer took to compute (on the blocking pool).
    pub render_time: Duration,
}

#[derive(Debug, Default)]
struct Round {
    /// Open incidents of an earlier run of this instance were read.
    adopted: bool,
    tracker: IncidentTracker,
    pending: VecDeque<RawCheck>,
    pending_incidents: VecDeque<IncidentRow>,
    dropped: u64,
    /// Hours (start ms) this instance wrote checks into and has not rolled up since.
    dirty_hours: BTreeSet<i64>,
    dirty_days: BTreeSet<i64>,
    last_prune_hour: Option<i64>,
    snapshot: Snapshot,
    /// Hour of the last full rollup read; rollups are re-read when it changes or after a write
    /// of held rows.
    rollups_read_hour: Option<i64>,
    /// This process's own rounds, against which checks stored under its name are told apart.
    name: NameWatch,
}

/// The status checker and the status answers. One per process, shared by the scheduler and the routes.
#[derive(Debug)]
pub struct StatusService {
    db: Database,
    config: StatusConfig,
    checker: Checker,
    round: tokio::sync::Mutex<Round>,
    published: RwLock<Arc<Published>>,
    rounds: AtomicU64,
    /// Set once another live instance is found checking under this `INSTANCE_ID` and this process
    /// started while it was: the server then stops ([`Self::refused`]).
    refusal: tokio::sync::watch::Sender<Option<DuplicateInstance>>,
}

impl StatusService {
    pub fn new(db: Database, config: StatusConfig) -> Self {
        let checker = Checker::new(db.clone(), config.queue_url.clone());
        let now = crate::time::now_ms();
        let components = checker.components();
        let context = Context {
            now_ms: now,
            interval_ms: interval_ms(&config),
            checked_here: &components,
        };
        let empty = Snapshot::default();
        let summary = summary::summarize(&empty, &context, &config.instance_id);
        Self {
            published: RwLock::new(Arc::new(Published::new(&summary, &empty))),
            db,
            checker,
            config,
            round: tokio::sync::Mutex::new(Round {
                // Whatever this instance wrote in the last 48 hours is rolled up again at start, in
                // case it stopped before rolling up its last hours.
                dirty_hours: (0..48)
                    .map(|h| floor(now, HOUR_MS) - (h + 1) * HOUR_MS)
                    .collect(),
                dirty_days: [floor(now, DAY_MS) - DAY_MS].into(),
                ..Round::default()
            }),
            rounds: AtomicU64::new(0),
            refusal: tokio::sync::watch::Sender::new(None),
        }
    }

    pub fn config(&self) -> &StatusConfig {
        &self.config
    }

    /// The answers of the last round.
    pub fn published(&self) -> Arc<Published> {
        match self.published.read() {
            Ok(published) => published.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Rounds finished since start.
    pub fn rounds(&self) -> u64 {
        self.rounds.load(Ordering::Relaxed)
    }

    /// The latest check time found stored under this `INSTANCE_ID` that this process did not
    /// write: another process shares the name (logged as a warning too).
    pub async fn foreign_checks_seen(&self) -> Option<i64> {
        self.round.lock().await.name.foreign_seen()
    }

    /// Why this process must not run, once found: another live instance checks this database
    /// under its `INSTANCE_ID` and was there first (`duplicates`).
    pub fn refusal(&self) -> Option<DuplicateInstance> {
        self.refusal.borrow().clone()
    }

    /// Waits until [`Self::refusal`] is set.
    pub async fn refused(&self) -> DuplicateInstance {
        let mut refusal = self.refusal.subscribe();
        loop {
            if let Some(found) = refusal.borrow_and_update().clone() {
                return found;
            }
            // The sender lives in `self`, so it is never dropped while this waits.
            if refusal.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }

    /// Checks every component now, as if the clock said `now_ms`, and publishes the new answers.
    /// When this round's own database check failed, the round does not wait on the database.
    pub async fn check_now(&self, now_ms: i64) -> RoundReport {
        let results = self.checker.run(&self.config.instance_id, now_ms).await;
        let checks: Vec<RawCheck> = results.iter().map(RawCheck::from).collect();
        let db_down = results.iter().any(|c| c.component == "db" && !c.healthy);
        self.record_round(checks, now_ms, db_down).await
    }

    /// Records `checks` as this instance's round at `now_ms`, then rolls up, prunes and publishes.
    pub async fn record(&self, checks: Vec<RawCheck>, now_ms: i64) -> RoundReport {
        self.record_round(checks, now_ms, false).await
    }

    async fn record_round(&self, checks: Vec<RawCheck>, now_ms: i64, db_down: bool) -> RoundReport {
        let mut round = self.round.lock().await;
        let mut window = self.db_window(db_down);
        let mut report = self.store(&mut round, &checks, now_ms, &mut window).await;
        report.render_time = self.refresh(&mut round, &checks, now_ms, &mut window).await;
        self.rounds.fetch_add(1, Ordering::Relaxed);
        report
    }

    /// Records `checks` like [`Self::record`] but publishes nothing: the storage tests feed a year
    /// of made-up rounds through here, where re-rendering every answer each round would only cost time.
    pub async fn store_only(&self, checks: Vec<RawCheck>, now_ms: i64) -> RoundReport {
        let mut round = self.round.lock().await;
        let mut window = self.db_window(false);
        self.store(&mut round, &checks, now_ms, &mut window).await
    }

    fn db_window(&self, away: bool) -> DbWindow {
        DbWindow::new((self.config.check_interval / 2).min(DB_BUDGET), away)
    }

    async fn store(
        &self,
        round: &mut Round,
        checks: &[RawCheck],
        now_ms: i64,
        window: &mut DbWindow,
    ) -> RoundReport {
        let mut report = RoundReport {
            checked: checks.len(),
            ..RoundReport::default()
        };
        let me = self.config.instance_id.as_str();
        round.name.own_round(
            checks
                .iter()
                .filter(|c| c.instance_id == me)
                .map(|c| c.checked_at),
            now_ms,
        );
        if !round.adopted {
            if let Some(open) = window
                .run(
                    "read open incidents",
                    self.db
                        .status_incidents_since(i64::MAX, INCIDENTS_READ_LIMIT),
                )
                .await
            {
                for incident in open
                    .into_iter()
                    .filter(|i| i.instance_id == self.config.instance_id)
                {
                    if let Some(closed) = round.tracker.adopt(incident) {
                        round.pending_incidents.push_back(closed);
                    }
                }
                round.adopted = true;
            }
        }
        for check in checks {
            if let Some(change) = round.tracker.observe(check) {
                round.pending_incidents.push_back(change);
                if round.pending_incidents.len() > PENDING_INCIDENTS_LIMIT {
                    round.pending_incidents.pop_front();
                }
            }
        }
        round.pending.extend(checks.iter().cloned());
        while round.pending.len() > PENDING_CHECKS_LIMIT {
            round.pending.pop_front();
            round.dropped += 1;
        }
        report.dropped = round.dropped;

        let held_before = round.pending.len() - checks.len().min(round.pending.len());
        let written = self.write_pending(round, window).await;
        report.written = written;
        report.pending = round.pending.len();
        if written > 0 && round.pending.is_empty() {
            if held_before > 0 {
                // Rows of an outage landed in the past: re-read the rollups.
                round.rollups_read_hour = None;
            }
            report.rolled_up = self.roll_up(round, now_ms, window).await;
            self.prune(round, now_ms, window).await;
        }
        report
    }

    /// Writes held checks and incident changes, oldest first; returns how many checks went in.
    async fn write_pending(&self, round: &mut Round, window: &mut DbWindow) -> usize {
        let checks: Vec<RawCheck> = round.pending.iter().cloned().collect();
        if window
            .run_write("write checks", self.db.insert_status_checks(&checks))
            .await
            .is_none()
        {
            tracing::debug!(
                held = checks.len(),
                "status: checks held until the database answers"
            );
            return 0;
        }
        round.pending.clear();
        for check in &checks {
            round.dirty_hours.insert(floor(check.checked_at, HOUR_MS));
            round.dirty_days.insert(floor(check.checked_at, DAY_MS));
        }
        self.write_pending_incidents(round, window).await;
        checks.len()
    }

    async fn write_pending_incidents(&self, round: &mut Round, window: &mut DbWindow) {
        while let Some(incident) = round.pending_incidents.front() {
            if window
                .run_write(
                    "write an incident",
                    self.db.upsert_status_incident(incident),
                )
                .await
                .is_none()
            {
                break;
            }
            round.pending_incidents.pop_front();
        }
    }

    /// Rolls up this instance's finished hours and days that got new checks, and the hours'
    /// agreed rollups of every viewpoint's checks; returns rows written.
    async fn roll_up(&self, round: &mut Round, now_ms: i64, window: &mut DbWindow) -> usize {
        let keep_from = now_ms - RAW_RETENTION_MS;
        let mut written = 0;
        let periods: Vec<(&str, i64, i64)> = round
            .dirty_hours
            .iter()
            .map(|h| ("hour", *h, HOUR_MS))
            .chain(round.dirty_days.iter().map(|d| ("day", *d, DAY_MS)))
            .filter(|(_, start, length)| start + length <= now_ms)
            .collect();
        for (resolution, start, length) in periods {
            // A period partly pruned already would be rolled up from part of its checks.
            if start >= keep_from {
                let me = self.config.instance_id.as_str();
                let rollups = if resolution == "hour" {
                    let Some(rows) = window
                        .run(
                            "read an hour",
                            self.db.status_checks_between(start, start + length),
                        )
                        .await
                    else {
                        return written;
                    };
                    let mine: Vec<RawCheck> = rows
                        .iter()
                        .filter(|c| c.instance_id == me)
                        .cloned()
                        .collect();
                    let bucket = interval_ms(&self.config).max(60_000);
                    let mut rollups = rollups_of(resolution, start, &mine);
                    rollups.extend(agreed_rollups(resolution, start, &rows, bucket));
                    rollups
                } else {
                    let Some(rows) = window
                        .run(
                            "read a day",
                            self.db.status_checks_of(me, start, start + length),
                        )
                        .await
                    else {
                        return written;
                    };
                    rollups_of(resolution, start, &rows)
                };
                if window
                    .run_write("write rollups", self.db.upsert_status_rollups(&rollups))
                    .await
                    .is_none()
                {
                    return written;
                }
                written += rollups.len();
            }
            match resolution {
                "hour" => round.dirty_hours.remove(&start),
                _ => round.dirty_days.remove(&start),
            };
        }
        written
    }

    async fn prune(&self, round: &mut Round, now_ms: i64, window: &mut DbWindow) {
        let hour = floor(now_ms, HOUR_MS);
        if round.last_prune_hour == Some(hour) {
            return;
        }
        if let Some(pruned) = window
            .run_write("prune", self.db.prune_status(now_ms))
            .await
        {
            tracing::debug!(?pruned, "status: pruned");
            round.last_prune_hour = Some(hour);
        }
    }

    /// Reloads what every viewpoint stored and re-renders the answers. When the database does not
    /// answer, the last snapshot is kept with this round's checks added, so the page shows the outage.
    /// Returns the time rendering took.
    async fn refresh(
        &self,
        round: &mut Round,
        checks: &[RawCheck],
        now_ms: i64,
        window: &mut DbWindow,
    ) -> Duration {
        let hour = floor(now_ms, HOUR_MS);
        let since = now_ms - DAY_MS;
        let db = self.db.clone();
        let raw = window
            .run(
                "read checks",
                off_runtime(async move { db.status_checks_since(since).await }),
            )
            .await;
        let incidents = match raw {
            Some(_) => {
                window
                    .run(
                        "read incidents",
                        self.db.status_incidents_since(
                            now_ms - ROLLUP_RETENTION_MS,
                            INCIDENTS_READ_LIMIT,
                        ),
                    )
                    .await
            }
            None => None,
        };
        match (raw, incidents) {
            (Some(mut raw), Some(mut incidents)) => {
                // Checks still held in memory are part of the picture too.
                raw.extend(round.pending.iter().cloned());
                merge_incident_changes(&mut incidents, round.pending_incidents.iter());
                round.snapshot.raw = raw;
                round.snapshot.incidents = incidents;
                if round.rollups_read_hour != Some(hour) {
                    let from = hour - ROLLUP_RETENTION_MS;
                    let db = self.db.clone();
                    let hourly = window
                        .run(
                            "read hourly rollups",
                            off_runtime(async move { db.status_rollups_since("hour", from).await }),
                        )
                        .await;
                    let daily = window
                        .run(
                            "read daily rollups",
                            self.db.status_rollups_since("day", from),
                        )
                        .await;
                    if let (Some(hourly), Some(daily)) = (hourly, daily) {
                        round.snapshot.hourly = hourly;
                        round.snapshot.daily = daily;
                        round.rollups_read_hour = Some(hour);
                    }
                }
                // Only with every viewpoint's rows fresh from the database: during an outage the
                // others' checks are not seen, and they are not gone.
                self.close_gone_viewpoints(round, now_ms, window).await;
                let me = &self.config.instance_id;
                let interval = interval_ms(&self.config);
                if let Some(refusal) = round.name.notice(&round.snapshot.raw, me, now_ms, interval)
                {
                    // The server stops now (and says why): nothing more to publish.
                    self.refusal.send_replace(Some(refusal));
                    return Duration::ZERO;
                }
            }
            _ => {
                round.snapshot.raw.retain(|c| c.checked_at >= since);
                round.snapshot.raw.extend(checks.iter().cloned());
                let changes: Vec<IncidentRow> = round.pending_incidents.iter().cloned().collect();
                merge_incident_changes(&mut round.snapshot.incidents, changes.iter());
            }
        }
        // Summarising, serialising and compressing every answer is CPU work that grows with the
        // history: off the request workers, onto the blocking pool.
        let snapshot = std::mem::take(&mut round.snapshot);
        let components = self.checker.components();
        let interval = interval_ms(&self.config);
        let instance_id = self.config.instance_id.clone();
        let rendered = tokio::task::spawn_blocking(move || {
            let started = Instant::now();
            let context = Context {
                now_ms,
                interval_ms: interval,
                checked_here: &components,
            };
            let summary = summary::summarize(&snapshot, &context, &instance_id);
            let published = Arc::new(Published::new(&summary, &snapshot));
            (snapshot, published, started.elapsed())
        })
        .await;
        match rendered {
            Ok((snapshot, published, took)) => {
                round.snapshot = snapshot;
                match self.published.write() {
                    Ok(mut slot) => *slot = published,
                    Err(poisoned) => *poisoned.into_inner() = published,
                }
                took
            }
            Err(error) => {
                // The snapshot went with the failed task: read everything again next round.
                tracing::error!(%error, "status: rendering the answers failed; the last ones stay");
                round.rollups_read_hour = None;
                Duration::ZERO
            }
        }
    }

    /// Ends the open incidents of other viewpoints that stopped checking (see
    /// [`incidents::expire_gone`]); the change is stored now or, failing that, with the next round.
    async fn close_gone_viewpoints(&self, round: &mut Round, now_ms: i64, window: &mut DbWindow) {
        let closed = incidents::expire_gone(
            &round.snapshot.incidents,
            &round.snapshot.raw,
            &self.config.instance_id,
            now_ms,
            interval_ms(&self.config),
        );
        if closed.is_empty() {
            return;
        }
        for incident in &closed {
            tracing::info!(
                component = %incident.component,
                viewpoint = %incident.instance_id,
                "status: closing an incident of a viewpoint that stopped checking"
            );
        }
        merge_incident_changes(&mut round.snapshot.incidents, closed.iter());
        round.pending_incidents.extend(closed);
        while round.pending_incidents.len() > PENDING_INCIDENTS_LIMIT {
            round.pending_incidents.pop_front();
        }
        self.write_pending_incidents(round, window).await;
    }

    /// Runs rounds forever, one every `STATUS_CHECK_INTERVAL`, the first at once.
    pub async fn run_schedule(self: Arc<Self>) {
        let mut ticker = tokio::time::interval(self.config.check_interval);
        // A round that overran (a slow queue check) does not shift the ones after it.
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            ticker.tick().await;
            let report = self.check_now(crate::time::now_ms()).await;
            tracing::debug!(?report, "status: round done");
        }
    }
}

fn interval_ms(config: &StatusConfig) -> i64 {
    i64::try_from(config.check_interval.as_millis()).unwrap_or(i64::MAX)
}

/// Applies incident changes not yet stored to incidents read from the database.
fn merge_incident_changes<'a>(
    incidents: &mut Vec<IncidentRow>,
    changes: impl Iterator<Item = &'a IncidentRow>,
) {
    for change in changes {
        match incidents.iter_mut().find(|i| {
            i.component == change.component
                && i.instance_id == change.instance_id
                && i.started_at == change.started_at
        }) {
            Some(stored) => stored.ended_at = change.ended_at,
            None => incidents.push(change.clone()),
        }
    }
}
