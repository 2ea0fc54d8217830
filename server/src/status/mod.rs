//! Status history (issue 18): this instance checks its components on a schedule, stores the results,
//! rolls them up, opens and closes incidents, and publishes the status answers from memory.
//!
//! A round (`check_now`): run the checks -> feed the incident tracker -> write the checks and
//! incident changes (held in a bounded queue while the database is away, written when it returns)
//! -> roll up the hours and days this instance finished writing -> prune once an hour -> reload the
//! snapshot (every viewpoint's rows) -> recompute the summary and re-render every answer.

pub mod badge;
pub mod checks;
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
    sync::{Arc, RwLock},
};

pub use crate::config::status::StatusConfig;

use self::{
    checks::Checker,
    incidents::IncidentTracker,
    render::Published,
    rollup::{floor, rollups_of},
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
}

/// The status checker and the status answers. One per process, shared by the scheduler and the routes.
#[derive(Debug)]
pub struct StatusService {
    db: Database,
    config: StatusConfig,
    checker: Checker,
    round: tokio::sync::Mutex<Round>,
    published: RwLock<Arc<Published>>,
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

    /// Checks every component now, as if the clock said `now_ms`, and publishes the new answers.
    pub async fn check_now(&self, now_ms: i64) -> RoundReport {
        let results = self.checker.run(&self.config.instance_id, now_ms).await;
        let checks: Vec<RawCheck> = results.iter().map(RawCheck::from).collect();
        self.record(checks, now_ms).await
    }

    /// Records `checks` as this instance's round at `now_ms`, then rolls up, prunes and publishes.
    pub async fn record(&self, checks: Vec<RawCheck>, now_ms: i64) -> RoundReport {
        let mut round = self.round.lock().await;
        let report = self.store(&mut round, &checks, now_ms).await;
        self.refresh(&mut round, &checks, now_ms).await;
        report
    }

    /// Records `checks` like [`Self::record`] but publishes nothing: the storage tests feed a year
    /// of made-up rounds through here, where re-rendering every answer each round would only cost time.
    pub async fn store_only(&self, checks: Vec<RawCheck>, now_ms: i64) -> RoundReport {
        let mut round = self.round.lock().await;
        self.store(&mut round, &checks, now_ms).await
    }

    async fn store(&self, round: &mut Round, checks: &[RawCheck], now_ms: i64) -> RoundReport {
        let mut report = RoundReport {
            checked: checks.len(),
            ..RoundReport::default()
        };
        if !round.adopted {
            if let Ok(open) = self
                .db
                .status_incidents_since(i64::MAX, INCIDENTS_READ_LIMIT)
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
        let written = self.write_pending(round).await;
        report.written = written;
        report.pending = round.pending.len();
        if written > 0 && round.pending.is_empty() {
            if held_before > 0 {
                // Rows of an outage landed in the past: re-read the rollups.
                round.rollups_read_hour = None;
            }
            report.rolled_up = self.roll_up(round, now_ms).await;
            self.prune(round, now_ms).await;
        }
        report
    }

    /// Writes held checks and incident changes, oldest first; returns how many checks went in.
    async fn write_pending(&self, round: &mut Round) -> usize {
        let checks: Vec<RawCheck> = round.pending.iter().cloned().collect();
        if let Err(error) = self.db.insert_status_checks(&checks).await {
            tracing::warn!(%error, held = checks.len(), "status: checks held until the database answers");
            return 0;
        }
        round.pending.clear();
        for check in &checks {
            round.dirty_hours.insert(floor(check.checked_at, HOUR_MS));
            round.dirty_days.insert(floor(check.checked_at, DAY_MS));
        }
        while let Some(incident) = round.pending_incidents.front() {
            if let Err(error) = self.db.upsert_status_incident(incident).await {
                tracing::warn!(%error, "status: incident change held until the database answers");
                break;
            }
            round.pending_incidents.pop_front();
        }
        checks.len()
    }

    /// Rolls up this instance's finished hours and days that got new checks; returns rows written.
    async fn roll_up(&self, round: &mut Round, now_ms: i64) -> usize {
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
                let rows = match self
                    .db
                    .status_checks_of(&self.config.instance_id, start, start + length)
                    .await
                {
                    Ok(rows) => rows,
                    Err(_) => return written,
                };
                let rollups = rollups_of(resolution, start, &rows);
                if self.db.upsert_status_rollups(&rollups).await.is_err() {
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

    async fn prune(&self, round: &mut Round, now_ms: i64) {
        let hour = floor(now_ms, HOUR_MS);
        if round.last_prune_hour == Some(hour) {
            return;
        }
        match self.db.prune_status(now_ms).await {
            Ok(pruned) => {
                tracing::debug!(?pruned, "status: pruned");
                round.last_prune_hour = Some(hour);
            }
            Err(error) => tracing::warn!(%error, "status: pruning failed"),
        }
    }

    /// Reloads what every viewpoint stored and re-renders the answers. When the database does not
    /// answer, the last snapshot is kept with this round's checks added, so the page shows the outage.
    async fn refresh(&self, round: &mut Round, checks: &[RawCheck], now_ms: i64) {
        let hour = floor(now_ms, HOUR_MS);
        let since = now_ms - DAY_MS;
        let raw = self.db.status_checks_since(since).await;
        let incidents = self
            .db
            .status_incidents_since(now_ms - ROLLUP_RETENTION_MS, INCIDENTS_READ_LIMIT)
            .await;
        match (raw, incidents) {
            (Ok(mut raw), Ok(mut incidents)) => {
                // Checks still held in memory are part of the picture too.
                raw.extend(round.pending.iter().cloned());
                merge_incident_changes(&mut incidents, round.pending_incidents.iter());
                round.snapshot.raw = raw;
                round.snapshot.incidents = incidents;
                if round.rollups_read_hour != Some(hour) {
                    let from = hour - ROLLUP_RETENTION_MS;
                    if let (Ok(hourly), Ok(daily)) = (
                        self.db.status_rollups_since("hour", from).await,
                        self.db.status_rollups_since("day", from).await,
                    ) {
                        round.snapshot.hourly = hourly;
                        round.snapshot.daily = daily;
                        round.rollups_read_hour = Some(hour);
                    }
                }
            }
            _ => {
                round.snapshot.raw.retain(|c| c.checked_at >= since);
                round.snapshot.raw.extend(checks.iter().cloned());
                let changes: Vec<IncidentRow> = round.pending_incidents.iter().cloned().collect();
                merge_incident_changes(&mut round.snapshot.incidents, changes.iter());
            }
        }
        let components = self.checker.components();
        let context = Context {
            now_ms,
            interval_ms: interval_ms(&self.config),
            checked_here: &components,
        };
        let summary = summary::summarize(&round.snapshot, &context, &self.config.instance_id);
        let published = Arc::new(Published::new(&summary, &round.snapshot));
        match self.published.write() {
            Ok(mut slot) => *slot = published,
            Err(poisoned) => *poisoned.into_inner() = published,
        }
    }

    /// Runs rounds forever, one every `STATUS_CHECK_INTERVAL`, the first at once.
    pub async fn run_schedule(self: Arc<Self>) {
        let mut ticker = tokio::time::interval(self.config.check_interval);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
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
