//! The writing side of a round of checks: what this instance holds between rounds (incident
//! tracking, checks and incident changes not yet stored, the periods still to roll up), and how a
//! round's checks reach the database: stored (or held while it is away), rolled up, pruned.

use std::collections::{BTreeSet, VecDeque};

use super::{
    aggregate::floor,
    day::DayFigures,
    db_window::DbWindow,
    duplicates::NameWatch,
    incidents::IncidentTracker,
    rollup::{agreed_rollups, combined_rollups, rollups_of},
    snapshot::Snapshot,
};
use crate::{
    store::checks::{IncidentRow, RawCheck, Resolution, RAW_RETENTION_MS},
    store::current_notices::NoticesGeneration,
    store::StatusQueries,
};
use mg_platform::{
    config::status::StatusConfig,
    db::Database,
    precomputed::reuse::Reuse,
    time::{DAY_MS, HOUR_MS},
};

/// Checks held in memory while the database is away: 10,000 is about 27 hours of an outage at the
/// default interval with three components. Beyond it the oldest are dropped (and counted).
pub const PENDING_CHECKS_LIMIT: usize = 10_000;
/// Incident changes held in memory while the database is away.
pub const PENDING_INCIDENTS_LIMIT: usize = 1_000;
/// Incidents read into the summary (open ones and those ended in the last 90 days).
pub const INCIDENTS_READ_LIMIT: i64 = 200;

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
    pub render_time: std::time::Duration,
    /// Stored rows the summary was computed from (raw checks, rollups, incidents, notices and
    /// windows): what a round reads and walks.
    pub rows_read: usize,
    /// Raw checks this round read from the database: what is new since the last round, not the
    /// day's window the summary is computed from.
    pub raw_read: usize,
    /// Whether the round read the notices (an operator wrote since the last read; else the last
    /// round's are used).
    pub notices_read: bool,
    /// Bytes of the answers the round made, and of them compressed (the rest were reused from the
    /// last round's, `mg_platform::precomputed::reuse`).
    pub answer_bytes: (usize, usize),
}

/// What a round leaves to the next besides the snapshot: the notices' generation they were read
/// at, and the compressed pieces of the answers' bodies.
#[derive(Debug, Default)]
pub struct Carried {
    /// `None` until read, and after this instance wrote notices.
    pub(super) generation: Option<NoticesGeneration>,
    /// Whether this round read the notices (their generation changed).
    pub notices_read: bool,
    pub(super) reuse: Reuse,
    /// The figures of the day's raw checks the last rendering made (`day`), kept for the buckets
    /// whose checks did not change.
    pub(super) day: Option<DayFigures>,
}

impl Carried {
    /// Bytes of answers this round made, and of them compressed (the rest were the last round's).
    pub fn answer_bytes(&self) -> (usize, usize) {
        (self.reuse.made, self.reuse.compressed)
    }
}

/// What one process keeps from round to round (one at a time: the service holds it under a lock).
#[derive(Debug, Default)]
pub struct Round {
    /// Open incidents of an earlier run of this instance were read.
    adopted: bool,
    tracker: IncidentTracker,
    pub(super) pending: VecDeque<RawCheck>,
    pub(super) pending_incidents: VecDeque<IncidentRow>,
    dropped: u64,
    /// Hours (start ms) this instance wrote checks into and has not rolled up since.
    dirty_hours: BTreeSet<i64>,
    dirty_days: BTreeSet<i64>,
    last_prune_hour: Option<i64>,
    pub(super) snapshot: Snapshot,
    /// Where the reads of the day's raw checks (`snapshot.raw`) got to.
    pub(super) raw_window: super::raw_window::RawWindow,
    /// Raw checks the last refresh read from the database ([`RoundReport::raw_read`]).
    pub(super) raw_read: usize,
    /// Hour of the last full rollup read; rollups are re-read when it changes or after a write
    /// of held rows.
    pub(super) rollups_read_hour: Option<i64>,
    /// This process's own rounds, against which checks stored under its name are told apart.
    pub(super) name: NameWatch,
    /// What the last round's answers leave to the next (`publish`).
    pub(super) carried: Carried,
}

impl Round {
    /// The state of a process starting at `now_ms`. Whatever this instance wrote in the last 48
    /// hours is rolled up again, in case it stopped before rolling up its last hours.
    pub fn starting_at(now_ms: i64) -> Self {
        Self {
            dirty_hours: (0..48)
                .map(|h| floor(now_ms, HOUR_MS) - (h + 1) * HOUR_MS)
                .collect(),
            dirty_days: [floor(now_ms, DAY_MS) - DAY_MS].into(),
            ..Self::default()
        }
    }

    /// Records `checks` (this instance's round at `now_ms`): feeds the incident tracker, writes
    /// what is held, then rolls up and prunes once everything held is stored.
    pub async fn store(
        &mut self,
        db: &Database,
        config: &StatusConfig,
        checks: &[RawCheck],
        now_ms: i64,
        window: &mut DbWindow,
    ) -> RoundReport {
        let mut report = RoundReport {
            checked: checks.len(),
            ..RoundReport::default()
        };
        let me = config.instance_id.as_str();
        self.name.own_round(
            checks
                .iter()
                .filter(|c| c.instance_id == me)
                .map(|c| c.checked_at),
            now_ms,
        );
        if !self.adopted {
            if let Some(open) = window
                .run(
                    "read open incidents",
                    db.status()
                        .status_incidents_since(i64::MAX, INCIDENTS_READ_LIMIT),
                )
                .await
            {
                for incident in open.into_iter().filter(|i| i.instance_id == me) {
                    if let Some(closed) = self.tracker.adopt(incident) {
                        self.pending_incidents.push_back(closed);
                    }
                }
                self.adopted = true;
            }
        }
        for check in checks {
            if let Some(change) = self.tracker.observe(check) {
                self.pending_incidents.push_back(change);
                if self.pending_incidents.len() > PENDING_INCIDENTS_LIMIT {
                    self.pending_incidents.pop_front();
                }
            }
        }
        self.pending.extend(checks.iter().cloned());
        while self.pending.len() > PENDING_CHECKS_LIMIT {
            self.pending.pop_front();
            self.dropped += 1;
        }
        report.dropped = self.dropped;

        let held_before = self.pending.len() - checks.len().min(self.pending.len());
        let written = self.write_pending(db, window).await;
        report.written = written;
        report.pending = self.pending.len();
        if written > 0 && self.pending.is_empty() {
            if held_before > 0 {
                // Rows of an outage landed in the past: re-read the rollups.
                self.rollups_read_hour = None;
            }
            report.rolled_up = self.roll_up(db, config, now_ms, window).await;
            self.prune(db, now_ms, window).await;
        }
        report
    }

    /// Writes held checks and incident changes, oldest first; returns how many checks went in.
    async fn write_pending(&mut self, db: &Database, window: &mut DbWindow) -> usize {
        let checks: Vec<RawCheck> = self.pending.iter().cloned().collect();
        if window
            .run_write("write checks", db.status().insert_status_checks(&checks))
            .await
            .is_none()
        {
            tracing::debug!(
                held = checks.len(),
                "status: checks held until the database answers"
            );
            return 0;
        }
        self.pending.clear();
        for check in &checks {
            self.dirty_hours.insert(floor(check.checked_at, HOUR_MS));
            self.dirty_days.insert(floor(check.checked_at, DAY_MS));
        }
        self.write_pending_incidents(db, window).await;
        checks.len()
    }

    /// Writes held incident changes, oldest first, until one fails.
    pub async fn write_pending_incidents(&mut self, db: &Database, window: &mut DbWindow) {
        while let Some(incident) = self.pending_incidents.front() {
            if window
                .run_write(
                    "write an incident",
                    db.status().upsert_status_incident(incident),
                )
                .await
                .is_none()
            {
                break;
            }
            self.pending_incidents.pop_front();
        }
    }

    /// Rolls up this instance's finished hours and days that got new checks, and the hours'
    /// agreed and combined rollups of every viewpoint's checks; returns rows written.
    async fn roll_up(
        &mut self,
        db: &Database,
        config: &StatusConfig,
        now_ms: i64,
        window: &mut DbWindow,
    ) -> usize {
        let keep_from = now_ms - RAW_RETENTION_MS;
        let me = config.instance_id.as_str();
        let mut written = 0;
        let periods: Vec<(Resolution, i64)> = self
            .dirty_hours
            .iter()
            .map(|h| (Resolution::Hour, *h))
            .chain(self.dirty_days.iter().map(|d| (Resolution::Day, *d)))
            .filter(|(resolution, start)| start + resolution.period_ms() <= now_ms)
            .collect();
        for (resolution, start) in periods {
            let end = start + resolution.period_ms();
            // A period partly pruned already would be rolled up from part of its checks.
            if start >= keep_from {
                let rollups = match resolution {
                    Resolution::Hour => {
                        let Some(rows) = window
                            .run(
                                "read an hour",
                                db.status().status_checks_between(start, end),
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
                        let bucket = config.interval_ms().max(60_000);
                        let mut rollups = rollups_of(resolution, start, &mine);
                        rollups.extend(agreed_rollups(resolution, start, &rows, bucket));
                        rollups.extend(combined_rollups(resolution, start, &rows));
                        rollups
                    }
                    Resolution::Day => {
                        let Some(rows) = window
                            .run("read a day", db.status().status_checks_of(me, start, end))
                            .await
                        else {
                            return written;
                        };
                        rollups_of(resolution, start, &rows)
                    }
                };
                if window
                    .run_write("write rollups", db.status().upsert_status_rollups(&rollups))
                    .await
                    .is_none()
                {
                    return written;
                }
                written += rollups.len();
            }
            match resolution {
                Resolution::Hour => self.dirty_hours.remove(&start),
                Resolution::Day => self.dirty_days.remove(&start),
            };
        }
        written
    }

    /// Stored rows the last summary was computed from ([`RoundReport::rows_read`]).
    pub fn rows_read(&self) -> usize {
        let s = &self.snapshot;
        s.raw.len() + s.hourly.len() + s.incidents.len() + s.notices.len() + s.windows.len()
    }

    /// Adds the checks still held in memory (not stored yet, so no read brings them) and those of
    /// `extra` not among them to the picture, for one rendering; returns the length to cut
    /// `snapshot.raw` back to after it ([`Self::drop_held_checks`]).
    pub(super) fn add_held_checks(&mut self, extra: &[RawCheck]) -> usize {
        let len = self.snapshot.raw.len();
        let held: Vec<RawCheck> = self
            .pending
            .iter()
            .chain(extra.iter().filter(|c| !self.pending.contains(c)))
            .cloned()
            .collect();
        self.snapshot.raw.extend(held);
        len
    }

    /// Cuts the checks [`Self::add_held_checks`] added: once stored they are read like any other.
    pub(super) fn drop_held_checks(&mut self, len: usize) {
        self.snapshot.raw.truncate(len);
    }

    /// Deletes what is past its retention, at most once an hour.
    async fn prune(&mut self, db: &Database, now_ms: i64, window: &mut DbWindow) {
        let hour = floor(now_ms, HOUR_MS);
        if self.last_prune_hour == Some(hour) {
            return;
        }
        if let Some(pruned) = window
            .run_write("prune", db.status().prune_status(now_ms))
            .await
        {
            tracing::debug!(?pruned, "status: pruned");
            if let Some(notices) = window
                .run_write("prune notices", db.status().prune_notices(now_ms))
                .await
            {
                tracing::debug!(notices, "status: pruned old notices and operator log lines");
            }
            if let Some(settings) = window
                .run_write("prune declarations", db.status().prune_declarations(now_ms))
                .await
            {
                tracing::debug!(settings, "status: pruned replaced component statuses");
            }
            self.last_prune_hour = Some(hour);
        }
    }
}
