//! The readiness probe of `/db-health` and the status checks: a read through a real table, then a
//! committed write of one row, so a full disk, a read-only file system or a held write lock show as
//! unhealthy while reads still work. `/db-health` is anyone's to call: there the write runs at most
//! once a second (callers in between get its last answer), so probes cannot be turned into a
//! stream of writes; the read, which costs nothing to the writers, runs every time.

use std::time::{Duration, Instant};

use sqlx::AnyPool;

use crate::time::Clock;

/// How long the write's answer is given to later `/db-health` callers instead of writing again.
pub const PROBE_REUSE: Duration = Duration::from_secs(1);

/// Which half of the probe failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeStep {
    Read,
    Write,
}

/// Why it failed, as far as the error says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeReason {
    /// No answer within the probe's limit (a held lock, a stuck server, an exhausted pool).
    TimedOut,
    /// SQLite's `SQLITE_FULL` or PostgreSQL's `disk_full`.
    DiskFull,
    /// A read-only file, file system or transaction.
    ReadOnly,
    Other,
}

/// A failed probe: what failed, why, and the driver's own words for the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeFailure {
    pub step: ProbeStep,
    pub reason: ProbeReason,
    pub detail: String,
}

impl ProbeFailure {
    fn of(step: ProbeStep, error: &sqlx::Error) -> Self {
        Self {
            step,
            reason: reason_of(error),
            detail: error.to_string(),
        }
    }

    fn timed_out(step: ProbeStep) -> Self {
        Self {
            step,
            reason: ProbeReason::TimedOut,
            detail: "no answer within the probe's limit".into(),
        }
    }

    /// The sentence people read on `/db-health` and the status page: which step failed and why.
    pub fn message(&self) -> &'static str {
        match (self.step, self.reason) {
            (ProbeStep::Read, ProbeReason::TimedOut) => "The database did not answer within 1 s.",
            (ProbeStep::Read, _) => "The database did not answer.",
            (ProbeStep::Write, ProbeReason::TimedOut) => {
                "The database did not accept a write within 1 s."
            }
            (ProbeStep::Write, ProbeReason::DiskFull) => {
                "The database refused a write: its disk is full."
            }
            (ProbeStep::Write, ProbeReason::ReadOnly) => {
                "The database refused a write: it is read-only."
            }
            (ProbeStep::Write, ProbeReason::Other) => "The database refused a write.",
        }
    }
}

/// The kind of a database error, read from the engine's code: SQLite's primary result code (the
/// low byte of its extended code) or PostgreSQL's SQLSTATE.
fn reason_of(error: &sqlx::Error) -> ProbeReason {
    let Some(code) = error.as_database_error().and_then(|e| e.code()) else {
        return match error {
            sqlx::Error::PoolTimedOut => ProbeReason::TimedOut,
            _ => ProbeReason::Other,
        };
    };
    const SQLITE_READONLY: i64 = 8;
    const SQLITE_FULL: i64 = 13;
    match (code.as_ref(), code.parse::<i64>().map(|c| c & 0xff)) {
        ("53100", _) | (_, Ok(SQLITE_FULL)) => ProbeReason::DiskFull,
        ("25006", _) | (_, Ok(SQLITE_READONLY)) => ProbeReason::ReadOnly,
        _ => ProbeReason::Other,
    }
}

/// The probe's memory, one for every clone of the database: the last write's answer and when it
/// was made (see [`PROBE_REUSE`]).
#[derive(Debug, Default)]
pub struct Probe {
    last_write: tokio::sync::Mutex<Option<(Instant, Result<(), ProbeFailure>)>>,
    /// What the answer's age is read against (`Config::clock`).
    clock: Clock,
}

impl Probe {
    /// A probe whose answers age by `clock`.
    pub fn with_clock(clock: Clock) -> Self {
        Self {
            clock,
            ..Self::default()
        }
    }

    /// `/db-health`'s probe of `pool`: reads through a real table (a bare `SELECT 1` never touches
    /// SQLite's file), then rewrites the probe row and waits for its commit, each step within
    /// `limit`. A write answer younger than [`PROBE_REUSE`] is given again instead; callers
    /// arriving during a write wait for it.
    pub async fn run(&self, pool: &AnyPool, limit: Duration) -> Result<(), ProbeFailure> {
        probe_read(pool, limit).await?;
        let mut last = self.last_write.lock().await;
        if let Some((at, outcome)) = last.as_ref() {
            if self.clock.instant().saturating_duration_since(*at) < PROBE_REUSE {
                return outcome.clone();
            }
        }
        let outcome = probe_write(pool, limit).await;
        *last = Some((self.clock.instant(), outcome.clone()));
        outcome
    }

    /// The status checks' probe: the same two steps, the write always made (the checks run on
    /// this instance's own schedule, not on a client's), its answer kept for `/db-health`.
    pub async fn run_now(&self, pool: &AnyPool, limit: Duration) -> Result<(), ProbeFailure> {
        probe_read(pool, limit).await?;
        let mut last = self.last_write.lock().await;
        let outcome = probe_write(pool, limit).await;
        *last = Some((self.clock.instant(), outcome.clone()));
        outcome
    }
}

async fn probe_read(pool: &AnyPool, limit: Duration) -> Result<(), ProbeFailure> {
    let read = sqlx::query("SELECT 1 FROM users LIMIT 1").execute(pool);
    let outcome = match tokio::time::timeout(limit, read).await {
        Ok(Ok(_)) => return Ok(()),
        Ok(Err(error)) => ProbeFailure::of(ProbeStep::Read, &error),
        Err(_) => ProbeFailure::timed_out(ProbeStep::Read),
    };
    Err(logged(outcome))
}

async fn probe_write(pool: &AnyPool, limit: Duration) -> Result<(), ProbeFailure> {
    // `execute` steps the statement to its end, where an autocommit statement commits: a
    // failed commit is this call's error, not lost in a reset.
    let write = sqlx::query("UPDATE write_probe SET beat_at = $1 WHERE id = 1")
        .bind(crate::time::now_ms())
        .execute(pool);
    match tokio::time::timeout(limit, write).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(error)) => Err(logged(ProbeFailure::of(ProbeStep::Write, &error))),
        Err(_) => Err(logged(ProbeFailure::timed_out(ProbeStep::Write))),
    }
}

/// Every failed probe is an ERROR line with the driver's words (the answers carry only a sentence).
fn logged(failure: ProbeFailure) -> ProbeFailure {
    tracing::error!(
        step = ?failure.step,
        reason = ?failure.reason,
        detail = %failure.detail,
        "database probe failed"
    );
    failure
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::db::testing::test_database as database;

    #[tokio::test]
    async fn a_held_write_lock_fails_the_write_step_within_the_limit() {
        let (dir, db) = database().await;
        assert_eq!(db.probe(Duration::from_secs(1)).await, Ok(()));
        // Another process holds SQLite's write lock.
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let mut holder = <sqlx::AnyConnection as sqlx::Connection>::connect(&url)
            .await
            .expect("second connection");
        sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut holder)
            .await
            .expect("lock");
        tokio::time::sleep(PROBE_REUSE).await;
        let started = Instant::now();
        let failure = db
            .probe(Duration::from_millis(300))
            .await
            .expect_err("the write cannot commit");
        assert!(started.elapsed() < Duration::from_secs(2));
        assert_eq!(failure.step, ProbeStep::Write);
        assert_eq!(failure.reason, ProbeReason::TimedOut);
        assert_eq!(
            failure.message(),
            "The database did not accept a write within 1 s."
        );
        sqlx::query("ROLLBACK")
            .execute(&mut holder)
            .await
            .expect("unlock");
    }

    #[tokio::test]
    async fn a_write_answer_is_reused_for_a_second_then_written_again() {
        let (_dir, db) = database().await;
        let beat = || async {
            sqlx::query_scalar::<_, i64>("SELECT beat_at FROM write_probe")
                .fetch_one(db.pool())
                .await
                .expect("read")
        };
        db.probe(Duration::from_secs(1)).await.expect("healthy");
        let first = beat().await;
        assert!(first > 0, "the probe wrote its row");
        for _ in 0..20 {
            db.probe(Duration::from_secs(1)).await.expect("healthy");
        }
        assert_eq!(beat().await, first, "no write within the reuse window");
        tokio::time::sleep(PROBE_REUSE + Duration::from_millis(50)).await;
        db.probe(Duration::from_secs(1)).await.expect("healthy");
        let second = beat().await;
        assert!(second > first, "written again after the window");
        tokio::time::sleep(Duration::from_millis(5)).await;
        db.probe_now(Duration::from_secs(1)).await.expect("healthy");
        assert!(
            beat().await > second,
            "the status checks' probe always writes"
        );
    }

    #[test]
    fn each_failure_says_which_step_failed_and_why() {
        let write = |reason| ProbeFailure {
            step: ProbeStep::Write,
            reason,
            detail: String::new(),
        };
        assert_eq!(
            write(ProbeReason::DiskFull).message(),
            "The database refused a write: its disk is full."
        );
        assert_eq!(
            write(ProbeReason::ReadOnly).message(),
            "The database refused a write: it is read-only."
        );
        assert_eq!(
            ProbeFailure::timed_out(ProbeStep::Read).message(),
            "The database did not answer within 1 s."
        );
    }
}
