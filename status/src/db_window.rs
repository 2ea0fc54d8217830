//! The database part of a round of checks: a time budget its calls share, and reads moved off
//! the request workers.

use std::{
    future::Future,
    time::{Duration, Instant},
};

/// The most a round waits on the database in all (less at short intervals: half of one).
pub const DB_BUDGET: Duration = Duration::from_secs(5);

/// The database calls of one round: each bounded by what is left of the round's budget, and none
/// after the first failure (the rest would only wait out the pool's timeout one by one).
#[derive(Debug)]
pub struct DbWindow {
    deadline: Instant,
    away: bool,
}

impl DbWindow {
    pub fn new(budget: Duration, away: bool) -> Self {
        Self {
            deadline: Instant::now() + budget,
            away,
        }
    }

    /// A read of the round: a failure is a warning (the page keeps its last picture).
    pub async fn run<T>(
        &mut self,
        what: &'static str,
        call: impl Future<Output = Result<T, sqlx::Error>>,
    ) -> Option<T> {
        self.call(what, false, call).await
    }

    /// A write of the round: a failure is an ERROR line, like every refused write of the server;
    /// what was not written stays held for the next round.
    pub async fn run_write<T>(
        &mut self,
        what: &'static str,
        call: impl Future<Output = Result<T, sqlx::Error>>,
    ) -> Option<T> {
        self.call(what, true, call).await
    }

    async fn call<T>(
        &mut self,
        what: &'static str,
        writes: bool,
        call: impl Future<Output = Result<T, sqlx::Error>>,
    ) -> Option<T> {
        if self.away {
            return None;
        }
        let left = self.deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, call).await {
            Ok(Ok(value)) => Some(value),
            Ok(Err(error)) if writes => {
                tracing::error!(%error, what, "status: database write failed; held for the next round");
                self.away = true;
                None
            }
            Ok(Err(error)) => {
                tracing::warn!(%error, what, "status: database call failed; the rest waits for the next round");
                self.away = true;
                None
            }
            Err(_) => {
                tracing::warn!(what, "status: database call out of the round's time; the rest waits for the next round");
                self.away = true;
                None
            }
        }
    }
}

/// Runs a database read on the blocking pool: reading back a day of every viewpoint's checks
/// or 90 days of rollups decodes tens of thousands of rows, CPU work that would otherwise hold a
/// request worker. (The query's I/O is still driven by the runtime.)
pub async fn off_runtime<T: Send + 'static>(
    read: impl Future<Output = Result<T, sqlx::Error>> + Send + 'static,
) -> Result<T, sqlx::Error> {
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || runtime.block_on(read))
        .await
        .unwrap_or_else(|error| {
            Err(sqlx::Error::Protocol(format!(
                "status read failed: {error}"
            )))
        })
}
