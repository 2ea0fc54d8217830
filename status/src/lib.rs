//! Status history: this instance checks its components on a schedule, stores the results,
//! rolls them up, opens and closes incidents, and publishes the status answers from memory.
//!
//! A round (`check_now`): run the checks -> feed the incident tracker -> write the checks and
//! incident changes (held in a bounded queue while the database is away, written when it returns)
//! -> roll up the hours and days this instance finished writing -> prune once an hour -> read the
//! raw checks every viewpoint stored since the last read into the day held in memory
//! (`raw_window`), and reload the rest of the snapshot -> close the incidents of viewpoints that are gone, and look
//! for another process checking under this `INSTANCE_ID` (`duplicates`: this one stops if it
//! started while the other was checking, else warns) -> recompute the summary and re-render every
//! answer on the blocking pool (it is CPU work: summaries, JSON, SVG, gzip), from the day's figures
//! per bucket, those of the buckets no new check fell in kept from the last round (`day`). The notices are read
//! again only when their generation changed (`publish`), and an answer's compressed copies reuse
//! the pieces of its body the last round compressed (`mg_platform::precomputed::reuse`).
//!
//! The database part of a round has a time budget, and a round skips it once the database failed
//! (this round's own check of it, or any call), so rounds keep their schedule through an outage.

pub mod aggregate;
mod agreement;
pub mod checks;
pub mod day;
#[cfg(test)]
mod day_tests;
mod db_window;
pub mod duplicates;
pub mod incidents;
pub mod notices;
pub mod operator;
pub mod operator_limits;
mod publish;
mod raw_window;
pub mod render;
pub mod rollup;
mod round;
pub mod series;
pub mod snapshot;
pub mod store;
pub mod summary;
#[cfg(test)]
mod summary_tests;
pub mod timelines;
pub mod webhooks;

use std::{
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, RwLock,
    },
    time::Duration,
};

pub use self::round::RoundReport;
pub use mg_platform::config::status::StatusConfig;

use self::{
    checks::Checker,
    db_window::{DbWindow, DB_BUDGET},
    duplicates::DuplicateInstance,
    publish::Refreshed,
    render::Published,
    round::Round,
    snapshot::Snapshot,
    summary::Context,
};
use crate::store::{checks::RawCheck, StatusQueries};
use mg_platform::db::Database;

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
    /// Each operator's writes this minute.
    pub operator_writes: operator_limits::WriteLimiter,
    /// The outgoing webhooks' worker (its queue is in the database).
    pub webhooks: Arc<webhooks::Webhooks>,
    /// The status page's absolute address: `PUBLIC_URL` + `/apotheosis`.
    page_url: String,
    /// The notices' timelines' pages asked since the last round (`timelines`).
    timelines: std::sync::Mutex<render::TimelinePages>,
}

impl StatusService {
    /// The service of `config` on `db`; `public_url` (`PUBLIC_URL`) is where the webhooks' bodies
    /// say the status page is.
    pub fn new(db: Database, config: StatusConfig, public_url: &str) -> Self {
        let checker = Checker::new(db.clone(), config.queue_url.clone());
        let now = mg_platform::time::now_ms();
        let components = checker.components();
        let page_url = mg_status_formats::statuspage::page_url(public_url);
        let context = Context {
            now_ms: now,
            interval_ms: config.interval_ms(),
            checked_here: &components,
            page_url: &page_url,
        };
        let empty = Snapshot::default();
        let summary = summary::summarize(&empty, &context, &config.instance_id);
        let webhooks = Arc::new(webhooks::Webhooks::new(
            db.clone(),
            public_url,
            config.webhooks_allow_private,
        ));
        Self {
            published: RwLock::new(Arc::new(Published::new(
                &summary,
                &empty,
                now,
                &mut Default::default(),
            ))),
            db,
            checker,
            config,
            round: tokio::sync::Mutex::new(Round::starting_at(now)),
            rounds: AtomicU64::new(0),
            refusal: tokio::sync::watch::Sender::new(None),
            operator_writes: operator_limits::write_limiter(),
            webhooks,
            page_url,
            timelines: std::sync::Mutex::default(),
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
        let mut report = round
            .store(&self.db, &self.config, &checks, now_ms, &mut window)
            .await;
        self.advance_windows(now_ms, &mut window).await;
        let refreshed = round
            .refresh(
                &self.db,
                &self.config,
                (self.checker.components(), &self.page_url),
                &checks,
                now_ms,
                &mut window,
            )
            .await;
        report.render_time = match refreshed {
            Refreshed::Published(published, took) => {
                self.record_changes(&published, now_ms, &mut window).await;
                self.publish(published);
                took
            }
            Refreshed::Refused(refusal) => {
                // The server stops now (and says why): nothing more to publish.
                self.refusal.send_replace(Some(refusal));
                Duration::ZERO
            }
            Refreshed::Kept => Duration::ZERO,
        };
        report.rows_read = round.rows_read();
        report.raw_read = round.raw_read;
        report.notices_read = round.carried.notices_read;
        report.answer_bytes = round.carried.answer_bytes();
        self.rounds.fetch_add(1, Ordering::Relaxed);
        report
    }

    /// Stores the components' state changes `published` shows, for the webhooks (in the round's
    /// database window: a failure only delays them to the next round, which looks again).
    async fn record_changes(&self, published: &Published, now_ms: i64, window: &mut DbWindow) {
        let stored = window
            .run_write(
                "record component changes",
                webhooks::changes::record(&self.db, published.page_summary(), now_ms),
            )
            .await;
        if stored.is_some_and(|n| n > 0) {
            self.webhooks.wake();
        }
    }

    /// Starts and ends the maintenance windows whose time came by `now_ms`, as an operator's
    /// update would (`store::window_clock`), before the round reads the notices to publish them.
    async fn advance_windows(&self, now_ms: i64, window: &mut DbWindow) {
        let added = window
            .run_write(
                "advance maintenance windows",
                self.db.status().advance_windows(now_ms),
            )
            .await;
        if let Some(added) = added.filter(|n| *n > 0) {
            tracing::info!(
                added,
                "status: maintenance windows started or ended by the clock"
            );
            self.webhooks.wake();
        }
    }

    /// Records `checks` like [`Self::record`] but publishes nothing: the storage tests feed a year
    /// of made-up rounds through here, where re-rendering every answer each round would only cost time.
    pub async fn store_only(&self, checks: Vec<RawCheck>, now_ms: i64) -> RoundReport {
        let mut round = self.round.lock().await;
        let mut window = self.db_window(false);
        round
            .store(&self.db, &self.config, &checks, now_ms, &mut window)
            .await
    }

    /// Re-renders the answers with the operators' notices read again (after an operator wrote
    /// one), as of `now_ms`. An error when the notices cannot be read: the last answers stay.
    pub async fn republish_notices(&self, now_ms: i64) -> Result<(), sqlx::Error> {
        // The operator's update is an event: its deliveries go out now, not at the next rest's end.
        self.webhooks.wake();
        let mut round = self.round.lock().await;
        let refreshed = round
            .republish_notices(
                &self.db,
                &self.config,
                (self.checker.components(), &self.page_url),
                now_ms,
            )
            .await?;
        if let Refreshed::Published(published, _) = refreshed {
            self.publish(published);
        }
        Ok(())
    }

    /// Makes `published` the answers served.
    fn publish(&self, published: Arc<Published>) {
        match self.published.write() {
            Ok(mut slot) => *slot = published,
            Err(poisoned) => *poisoned.into_inner() = published,
        }
    }

    fn db_window(&self, away: bool) -> DbWindow {
        DbWindow::new((self.config.check_interval / 2).min(DB_BUDGET), away)
    }

    /// Runs rounds forever, one every `STATUS_CHECK_INTERVAL`, the first at once.
    pub async fn run_schedule(self: Arc<Self>) {
        let mut ticker = tokio::time::interval(self.config.check_interval);
        // A round that overran (a slow queue check) does not shift the ones after it.
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            ticker.tick().await;
            let report = self.check_now(mg_platform::time::now_ms()).await;
            tracing::debug!(?report, "status: round done");
        }
    }
}
