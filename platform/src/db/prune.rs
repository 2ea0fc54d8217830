//! Periodic deletes in bounded batches: every pruning statement deletes at most [`PRUNE_BATCH`]
//! rows and commits on its own, and the next batch is a new statement, so no prune holds SQLite's
//! one write lock for longer than a batch takes (a request's write waits at most that long), and
//! none holds PostgreSQL row locks on a whole table's expired rows.
//!
//! A batch names its rows by their physical address, which each engine finds without an index of
//! the table's key: SQLite's `rowid` (every table here has one), PostgreSQL's `ctid` through an
//! array (`ctid = ANY(ARRAY(...))` is a TID scan; a key `IN (subquery)` lets PostgreSQL's planner
//! hash-join the whole table against the batch, reading it all to delete a thousand rows).

use super::{Backend, Database};

/// A statement in each engine's form, where they differ: a pruning statement ([`prune_batch!`]:
/// `$1` the cutoff, `$2` the batch), or one that locks rows on PostgreSQL.
#[derive(Debug, Clone, Copy)]
pub struct PerEngine {
    pub sqlite: &'static str,
    pub postgres: &'static str,
}

impl PerEngine {
    /// The statement as `backend` runs it.
    pub fn on(&self, backend: Backend) -> &'static str {
        match backend {
            Backend::Sqlite => self.sqlite,
            Backend::Postgres => self.postgres,
        }
    }
}

/// The [`PerEngine`] deleting at most `$2` rows of `$table` that meet `$condition` (which reads
/// the cutoff from `$1`; the table is not aliased, so the condition's columns are the row's), in
/// the order `$order` (an `ORDER BY` clause, or empty) after skipping `$3` of them when `$skip`
/// is ` OFFSET $3` (or empty).
#[macro_export]
macro_rules! prune_batch {
    ($table:literal, $condition:literal) => {
        $crate::prune_batch!($table, $condition, "", "")
    };
    ($table:literal, $condition:literal, $order:literal, $skip:literal) => {
        $crate::db::prune::PerEngine {
            sqlite: $crate::prune_batch!(@delete "rowid IN (SELECT rowid", ")",
                $table, $condition, $order, $skip),
            postgres: $crate::prune_batch!(@delete "ctid = ANY(ARRAY(SELECT ctid", "))",
                $table, $condition, $order, $skip),
        }
    };
    // One engine's statement: the rows picked by their address (`$pick` ... `$close`).
    (@delete $pick:literal, $close:literal,
        $table:literal, $condition:literal, $order:literal, $skip:literal) => {
        concat!(
            "DELETE FROM ", $table, " WHERE ", $pick, " FROM ", $table,
            " WHERE ", $condition, $order, " LIMIT $2", $skip, $close
        )
    };
}

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
    /// Runs the pruning statement `prune` with the cutoff `cutoff` (and `$3` `skip`, when it reads
    /// one) until a run deletes fewer than [`PRUNE_BATCH`] rows, each run its own autocommit
    /// statement, so the write lock is released between batches.
    pub async fn delete_in_batches(
        &self,
        prune: &PerEngine,
        cutoff: i64,
        skip: i64,
    ) -> Result<Batches, sqlx::Error> {
        let mut done = Batches::default();
        let sql = prune.on(self.backend());
        loop {
            let mut statement = sqlx::query(sql).bind(cutoff).bind(PRUNE_BATCH);
            if sql.contains("$3") {
                statement = statement.bind(skip);
            }
            let rows = statement.execute(self.pool()).await?.rows_affected();
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
