//! The last day of every viewpoint's raw checks, held between rounds: each round reads only the
//! checks stored since its last read (by the order they were stored, `seq`), adds them to the day
//! it holds and drops what left the day. A process reads the day whole once, at its first round
//! (or after a round lost its picture).
//!
//! A check that reaches the database late (held through an outage, or written by a slow instance)
//! is stored with a newer `seq` than every check read before it, whatever its time, so it is read
//! by the next round, once. On PostgreSQL a sequence's number is taken when the row is inserted,
//! not when it commits, so a write still in flight during a read can become visible below the
//! highest number that read saw: each read starts again from where the read before it ended, and
//! leaves out the numbers it holds already. A write that stays in flight across two rounds would be
//! missed (writes are single statements, bounded by the writer's round budget); SQLite, with one
//! writer at a time, hands out its numbers in the order the writes commit.
//!
//! Memory: the day's checks of the viewpoints that checked in it, `viewpoints x components x
//! (day / interval)` rows (31 viewpoints, 3 components every 30 s: 267,840), what the snapshot
//! held before as well, plus the numbers of the last two reads.

use std::collections::BTreeSet;

use super::db_window::{off_runtime, DbWindow};
use crate::store::{
    checks::{RawCheck, StoredCheck},
    StatusQueries,
};
use mg_platform::db::Database;

/// Where the reads of the raw checks got to.
#[derive(Debug, Default)]
pub struct RawWindow {
    /// The highest `seq` of the last read (0: nothing read yet, the next read takes the day whole).
    through: i64,
    /// The highest `seq` of the read before it: where the next read starts.
    from: i64,
    /// The numbers above `from` already held.
    held: BTreeSet<i64>,
}

impl RawWindow {
    /// Brings `raw` (the day held) up to date as of a round at `since_ms` + one day: reads the
    /// checks stored since the read before the last, adds those not held yet, and drops the checks
    /// made before `since_ms`. Returns the rows the database returned, or `None` when the read
    /// failed (`raw` is then as it was).
    pub async fn catch_up(
        &mut self,
        raw: &mut Vec<RawCheck>,
        db: &Database,
        since_ms: i64,
        window: &mut DbWindow,
    ) -> Option<usize> {
        if self.through == 0 {
            raw.clear();
            self.held.clear();
        }
        let (reader, from) = (db.clone(), self.from);
        let rows = window
            .run(
                "read checks",
                off_runtime(async move {
                    reader
                        .status()
                        .status_checks_stored_after(from, since_ms)
                        .await
                }),
            )
            .await?;
        let read = rows.len();
        raw.retain(|c| c.checked_at >= since_ms);
        self.add(raw, rows);
        Some(read)
    }

    /// Adds `rows` (read after `from`, in `seq` order) to `raw`, each once, and moves the read
    /// marks on.
    fn add(&mut self, raw: &mut Vec<RawCheck>, rows: Vec<StoredCheck>) {
        let first_read = self.through == 0;
        let last = rows
            .last()
            .map_or(self.through, |r| r.seq)
            .max(self.through);
        for row in rows {
            if first_read || self.held.insert(row.seq) {
                raw.push(row.check);
            }
        }
        // After the day's first read the next starts where it ended: reading the day twice would
        // cost what these reads save.
        self.from = if first_read { last } else { self.through };
        self.through = last;
        let from = self.from;
        self.held.retain(|seq| *seq > from);
    }

    /// Forgets what was read: the next read takes the day whole again (the picture was lost).
    pub fn reset(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(seq: i64, checked_at: i64) -> StoredCheck {
        StoredCheck {
            seq,
            check: RawCheck {
                component: "api".into(),
                instance_id: format!("i{seq}"),
                checked_at,
                healthy: 1,
                latency_us: 900,
                error: None,
            },
        }
    }

    #[test]
    fn a_row_read_again_by_the_overlap_is_held_once_and_a_late_one_is_added() {
        let mut window = RawWindow::default();
        let mut raw = Vec::new();
        window.add(&mut raw, vec![stored(1, 10), stored(2, 10), stored(4, 20)]);
        assert_eq!((window.from, window.through), (4, 4));
        window.add(&mut raw, vec![stored(5, 30), stored(7, 30)]);
        assert_eq!((window.from, window.through), (4, 7));
        // Seq 6 committed after the read that saw 7: the next read, from 4, finds it.
        window.add(&mut raw, vec![stored(5, 30), stored(6, 30), stored(7, 30)]);
        window.add(&mut raw, vec![stored(8, 40)]);
        let mut seqs: Vec<&str> = raw.iter().map(|c| c.instance_id.as_str()).collect();
        seqs.sort_unstable();
        assert_eq!(seqs, ["i1", "i2", "i4", "i5", "i6", "i7", "i8"]);
        assert_eq!((window.from, window.through), (7, 8));
        assert_eq!(window.held, [8].into());
    }
}
