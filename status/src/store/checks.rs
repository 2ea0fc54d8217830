//! The status tables on SQLite and PostgreSQL: raw checks, hourly/daily rollups, incidents.
//! Every write is idempotent (keyed upserts), so a batch re-sent after an outage changes nothing twice.

use sqlx::FromRow;

use super::StatusStore;
use mg_platform::db::prune::PerEngine;
use mg_platform::time::{DAY_MS, HOUR_MS};

/// Raw checks are kept this long.
pub const RAW_RETENTION_MS: i64 = 48 * HOUR_MS;
/// Rollups, and incidents after they end, are kept this long.
pub const ROLLUP_RETENTION_MS: i64 = 90 * DAY_MS;
/// Rows per multi-row INSERT (PostgreSQL allows 65535 bound values; SQLite 32766).
const BATCH_ROWS: usize = 500;

/// One stored check, from any instance.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct RawCheck {
    pub component: String,
    pub instance_id: String,
    pub checked_at: i64,
    pub healthy: i64,
    pub latency_us: i64,
    pub error: Option<String>,
}

/// A stored check with its place in the order checks were stored (`seq`, migration 0018): what
/// the rounds read after their last read.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct StoredCheck {
    pub seq: i64,
    #[sqlx(flatten)]
    pub check: RawCheck,
}

/// The period a rollup covers, stored as `hour` or `day` in its `resolution` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Resolution {
    Hour,
    Day,
}

impl Resolution {
    /// The column's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Resolution::Hour => "hour",
            Resolution::Day => "day",
        }
    }

    /// The period's length.
    pub fn period_ms(self) -> i64 {
        match self {
            Resolution::Hour => HOUR_MS,
            Resolution::Day => DAY_MS,
        }
    }
}

/// A `resolution` column this server did not write (only `hour` and `day` are ever stored).
#[derive(Debug, thiserror::Error)]
#[error("unknown rollup resolution {0:?}")]
pub struct UnknownResolution(String);

impl TryFrom<String> for Resolution {
    type Error = UnknownResolution;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        [Resolution::Hour, Resolution::Day]
            .into_iter()
            .find(|resolution| resolution.as_str() == text)
            .ok_or(UnknownResolution(text))
    }
}

/// Aggregates of one component seen from one instance over an hour or a day.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct Rollup {
    #[sqlx(try_from = "String")]
    pub resolution: Resolution,
    pub bucket_start: i64,
    pub component: String,
    pub instance_id: String,
    pub checks: i64,
    pub failures: i64,
    pub latency_p50_us: i64,
    pub latency_p95_us: i64,
    pub latency_max_us: i64,
}

/// An incident seen from one instance; `ended_at` is `None` while it is open.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct IncidentRow {
    pub component: String,
    pub instance_id: String,
    pub started_at: i64,
    pub ended_at: Option<i64>,
    pub first_error: String,
}

/// What one pruning pass deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pruned {
    pub checks: u64,
    pub rollups: u64,
    pub incidents: u64,
}

/// Rows the status tables hold at most once a deployment has run 90 days (and forever after),
/// per instance, checking `components` components every `interval_ms`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StorageBound {
    pub raw: i64,
    pub hourly: i64,
    pub daily: i64,
}

impl StorageBound {
    pub fn per_instance(interval_ms: i64, components: i64) -> Self {
        // Pruning runs once an hour, so a table holds up to an hour more than its retention;
        // +1: both ends of a window can hold a row.
        let per_window = |window: i64, period: i64| ((window + HOUR_MS) / period + 1) * components;
        Self {
            raw: per_window(RAW_RETENTION_MS, interval_ms.max(1)),
            // Its own and the hours' rollups of every viewpoint together (one set however many
            // instances, counted here in full).
            hourly: 2 * per_window(ROLLUP_RETENTION_MS, HOUR_MS),
            daily: per_window(ROLLUP_RETENTION_MS, DAY_MS),
        }
    }

    pub fn rows(&self) -> i64 {
        self.raw + self.hourly + self.daily
    }
}

/// Every instance's checks at or after `$1`, oldest first.
pub const CHECKS_SINCE: &str = "SELECT component, instance_id, checked_at, healthy, latency_us, \
     error FROM status_checks WHERE checked_at >= $1 ORDER BY checked_at";

/// Every instance's checks stored after `$1` (in `seq`) made at or after `$2`, in the order they
/// were stored: what a round has not read yet.
pub const CHECKS_STORED_AFTER: &str = "SELECT seq, component, instance_id, checked_at, healthy, \
     latency_us, error FROM status_checks WHERE seq > $1 AND checked_at >= $2 ORDER BY seq";

/// Instance `$1`'s checks in `[$2, $3)`.
pub const CHECKS_OF: &str = "SELECT component, instance_id, checked_at, healthy, latency_us, \
     error FROM status_checks WHERE instance_id = $1 AND checked_at >= $2 AND checked_at < $3";

/// Every instance's checks in `[$1, $2)`.
pub const CHECKS_BETWEEN: &str = "SELECT component, instance_id, checked_at, healthy, \
     latency_us, error FROM status_checks WHERE checked_at >= $1 AND checked_at < $2";

/// Every instance's rollups of resolution `$1` starting at or after `$2`, oldest first.
pub const ROLLUPS_SINCE: &str = "SELECT resolution, bucket_start, component, instance_id, \
     checks, failures, latency_p50_us, latency_p95_us, latency_max_us FROM status_rollups \
     WHERE resolution = $1 AND bucket_start >= $2 ORDER BY bucket_start";

/// The hours' combined and agreed rollups (instances `+` and `*`) starting at or after `$1`,
/// oldest first: the history's, as many rows however many viewpoints there were.
pub const HISTORY_ROLLUPS_SINCE: &str = "SELECT resolution, bucket_start, component, \
     instance_id, checks, failures, latency_p50_us, latency_p95_us, latency_max_us \
     FROM status_rollups \
     WHERE instance_id IN ('+', '*') AND resolution = 'hour' AND bucket_start >= $1 \
     ORDER BY bucket_start";

/// Opens or updates (closes) an incident.
pub const UPSERT_INCIDENT: &str = "INSERT INTO status_incidents (component, instance_id, \
         started_at, ended_at, first_error) \
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (component, instance_id, started_at) \
     DO UPDATE SET ended_at = excluded.ended_at";

/// Incidents still open, or ended at or after `$1`: newest first, at most `$2`.
pub const INCIDENTS_SINCE: &str = "SELECT component, instance_id, started_at, ended_at, \
     first_error FROM status_incidents \
     WHERE ended_at IS NULL OR ended_at >= $1 ORDER BY started_at DESC LIMIT $2";

/// A batch of the raw checks made before the cutoff (`mg_platform::db::prune`).
pub const PRUNE_CHECKS: PerEngine = mg_platform::prune_batch!("status_checks", "checked_at < $1");

/// A batch of the rollups of periods starting before the cutoff.
pub const PRUNE_ROLLUPS: PerEngine =
    mg_platform::prune_batch!("status_rollups", "bucket_start < $1");

/// A batch of the incidents ended before the cutoff.
pub const PRUNE_INCIDENTS: PerEngine =
    mg_platform::prune_batch!("status_incidents", "ended_at IS NOT NULL AND ended_at < $1");

/// Placeholders `($1, $2, ...), (...)` for `rows` rows of `width` values.
fn placeholders(rows: usize, width: usize) -> String {
    (0..rows)
        .map(|row| {
            let values: Vec<String> = (1..=width)
                .map(|i| format!("${}", row * width + i))
                .collect();
            format!("({})", values.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl StatusStore<'_> {
    /// Stores checks; a check already stored (same instance, component and time) is left as it is.
    pub async fn insert_status_checks(&self, checks: &[RawCheck]) -> Result<(), sqlx::Error> {
        for batch in checks.chunks(BATCH_ROWS) {
            let rows_sql = format!(
                "INSERT INTO status_checks (component, instance_id, checked_at, healthy, latency_us, error) \
                 VALUES {} ON CONFLICT (instance_id, component, checked_at) DO NOTHING",
                placeholders(batch.len(), 6)
            );
            let mut query = sqlx::query(&rows_sql);
            for check in batch {
                query = query
                    .bind(&check.component)
                    .bind(&check.instance_id)
                    .bind(check.checked_at)
                    .bind(check.healthy)
                    .bind(check.latency_us)
                    .bind(check.error.as_deref());
            }
            query.execute(self.pool()).await?;
        }
        Ok(())
    }

    /// Every instance's checks at or after `since_ms`, oldest first.
    pub async fn status_checks_since(&self, since_ms: i64) -> Result<Vec<RawCheck>, sqlx::Error> {
        self.query_all(CHECKS_SINCE, (since_ms,)).await
    }

    /// Every instance's checks stored after `after_seq` and made at or after `since_ms`, in the
    /// order they were stored.
    pub async fn status_checks_stored_after(
        &self,
        after_seq: i64,
        since_ms: i64,
    ) -> Result<Vec<StoredCheck>, sqlx::Error> {
        self.query_all(CHECKS_STORED_AFTER, (after_seq, since_ms))
            .await
    }

    /// One instance's checks in `[from_ms, to_ms)`.
    pub async fn status_checks_of(
        &self,
        instance_id: &str,
        from_ms: i64,
        to_ms: i64,
    ) -> Result<Vec<RawCheck>, sqlx::Error> {
        self.query_all(CHECKS_OF, (instance_id, from_ms, to_ms))
            .await
    }

    /// Every instance's checks in `[from_ms, to_ms)`.
    pub async fn status_checks_between(
        &self,
        from_ms: i64,
        to_ms: i64,
    ) -> Result<Vec<RawCheck>, sqlx::Error> {
        self.query_all(CHECKS_BETWEEN, (from_ms, to_ms)).await
    }

    /// Stores rollups, replacing any of the same period, component and instance.
    pub async fn upsert_status_rollups(&self, rollups: &[Rollup]) -> Result<(), sqlx::Error> {
        for batch in rollups.chunks(BATCH_ROWS) {
            let rows_sql = format!(
                "INSERT INTO status_rollups (resolution, bucket_start, component, instance_id, checks, \
                 failures, latency_p50_us, latency_p95_us, latency_max_us) VALUES {} \
                 ON CONFLICT (resolution, bucket_start, component, instance_id) DO UPDATE SET \
                 checks = excluded.checks, failures = excluded.failures, \
                 latency_p50_us = excluded.latency_p50_us, latency_p95_us = excluded.latency_p95_us, \
                 latency_max_us = excluded.latency_max_us",
                placeholders(batch.len(), 9)
            );
            let mut query = sqlx::query(&rows_sql);
            for r in batch {
                query = query
                    .bind(r.resolution.as_str())
                    .bind(r.bucket_start)
                    .bind(&r.component)
                    .bind(&r.instance_id)
                    .bind(r.checks)
                    .bind(r.failures)
                    .bind(r.latency_p50_us)
                    .bind(r.latency_p95_us)
                    .bind(r.latency_max_us);
            }
            query.execute(self.pool()).await?;
        }
        Ok(())
    }

    /// Every instance's rollups of `resolution` starting at or after `since_ms`, oldest first.
    pub async fn status_rollups_since(
        &self,
        resolution: Resolution,
        since_ms: i64,
    ) -> Result<Vec<Rollup>, sqlx::Error> {
        self.query_all(ROLLUPS_SINCE, (resolution.as_str(), since_ms))
            .await
    }

    /// The hours' combined and agreed rollups starting at or after `since_ms`, oldest first.
    pub async fn history_rollups_since(&self, since_ms: i64) -> Result<Vec<Rollup>, sqlx::Error> {
        self.query_all(HISTORY_ROLLUPS_SINCE, (since_ms,)).await
    }

    /// Opens or updates (closes) an incident.
    pub async fn upsert_status_incident(&self, incident: &IncidentRow) -> Result<(), sqlx::Error> {
        self.query_execute(
            UPSERT_INCIDENT,
            (
                &incident.component,
                &incident.instance_id,
                incident.started_at,
                incident.ended_at,
                &incident.first_error,
            ),
        )
        .await?;
        Ok(())
    }

    /// Incidents still open, or ended at or after `since_ms`: newest first, at most `limit`.
    pub async fn status_incidents_since(
        &self,
        since_ms: i64,
        limit: i64,
    ) -> Result<Vec<IncidentRow>, sqlx::Error> {
        self.query_all(INCIDENTS_SINCE, (since_ms, limit)).await
    }

    /// Deletes raw checks older than 48 hours, rollups older than 90 days, and incidents that
    /// ended more than 90 days before `now_ms`, in batches (`mg_platform::db::prune`).
    pub async fn prune_status(&self, now_ms: i64) -> Result<Pruned, sqlx::Error> {
        let checks = self
            .delete_in_batches(&PRUNE_CHECKS, now_ms - RAW_RETENTION_MS, 0)
            .await?
            .rows;
        let rollups = self
            .delete_in_batches(&PRUNE_ROLLUPS, now_ms - ROLLUP_RETENTION_MS, 0)
            .await?
            .rows;
        let incidents = self
            .delete_in_batches(&PRUNE_INCIDENTS, now_ms - ROLLUP_RETENTION_MS, 0)
            .await?
            .rows;
        Ok(Pruned {
            checks,
            rollups,
            incidents,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{placeholders, RawCheck};
    use crate::store::StatusQueries;
    use mg_platform::db::testing::test_database;

    #[test]
    fn placeholders_number_every_value_of_every_row() {
        assert_eq!(placeholders(2, 3), "($1, $2, $3), ($4, $5, $6)");
    }

    /// The reads by time take their window's ends in order: `[from, to)`, one instance's or all.
    #[tokio::test]
    async fn the_window_reads_keep_the_checks_from_its_start_up_to_its_end() {
        let (_dir, db) = test_database().await;
        let checks = [
            ("a", 999),
            ("a", 1_000),
            ("b", 1_500),
            ("a", 1_999),
            ("a", 2_000),
        ]
        .map(|(instance, at)| RawCheck {
            component: "api".into(),
            instance_id: instance.into(),
            checked_at: at,
            healthy: 1,
            latency_us: 10,
            error: None,
        });
        let store = db.status();
        store.insert_status_checks(&checks).await.expect("stored");
        let times = |read: Result<Vec<RawCheck>, _>| {
            let mut times: Vec<i64> = read.expect("read").iter().map(|c| c.checked_at).collect();
            times.sort_unstable();
            times
        };
        let of_a = times(store.status_checks_of("a", 1_000, 2_000).await);
        assert_eq!(of_a, [1_000, 1_999]);
        let between = times(store.status_checks_between(1_000, 2_000).await);
        assert_eq!(between, [1_000, 1_500, 1_999]);
    }
}
