//! Periodic deletes in bounded batches: every pruning statement deletes at most [`PRUNE_BATCH`]
//! rows and commits on its own, and the next batch is a new statement, so no prune holds SQLite's
//! one write lock for longer than a batch takes (a request's write waits at most that long), and
//! none holds PostgreSQL row locks on a whole table's expired rows.

use super::Database;

/// Rows one pruning statement deletes at most.
pub const PRUNE_BATCH: i64 = 1_000;

/// What [`Database::delete_in_batches`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Batches {
    /// Rows deleted in all.
    pub rows: u64,
    /// Statements run (the last one deleting fewer than a batch).
    pub statements: u64,
    /// The most rows one statement deleted.
    pub largest: u64,
}

impl Batches {
    pub fn add(&mut self, other: Batches) {
        self.rows += other.rows;
        self.statements += other.statements;
        self.largest = self.largest.max(other.largest);
    }
}

impl Database {
    /// Runs the pruning statement `sql` (its `$1` the cutoff, `$2` the batch: a `DELETE` of the
    /// rows a `LIMIT $2` subquery picks) until a run deletes fewer than [`PRUNE_BATCH`] rows, each
    /// run its own autocommit statement, so the write lock is released between batches.
    pub async fn delete_in_batches(&self, sql: &str, cutoff: i64) -> Result<Batches, sqlx::Error> {
        let mut done = Batches::default();
        loop {
            let rows = sqlx::query(sql)
                .bind(cutoff)
                .bind(PRUNE_BATCH)
                .execute(self.pool())
                .await?
                .rows_affected();
            done.add(Batches {
                rows,
                statements: 1,
                largest: rows,
            });
            if rows < PRUNE_BATCH as u64 {
                return Ok(done);
            }
        }
    }
}
