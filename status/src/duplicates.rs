//! Two processes checking under one `INSTANCE_ID` look like one viewpoint that checks twice as
//! often and opens every incident twice. A stored check under this name, since this process's
//! first round, at a time this process never checked, gives the other one away.
//!
//! Which of the two gives way: the one that started while the other was checking. A process that
//! finds a fresh check under its name when it starts (within the live window,
//! [`live_window_ms`]), and then, within that window after its own first round, a check it did
//! not write, refuses to run: the server stops with one sentence naming `INSTANCE_ID`. A restart
//! finds its predecessor's last check fresh too, but no newer one follows, so it runs. The process
//! that was there first only warns (at most hourly): a newcomer never stops a running instance.

use std::collections::BTreeSet;

use super::summary::live_window_ms;
use crate::store::checks::RawCheck;
use mg_platform::time::{rfc3339, DAY_MS, HOUR_MS};

/// Another process writing under this `INSTANCE_ID` is logged at most this often.
const WARNING_EVERY_MS: i64 = HOUR_MS;

/// Why this process must not go on: another live instance checks the same database under its
/// `INSTANCE_ID`. Its `Display` is the sentence the server stops with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateInstance {
    pub instance_id: String,
    /// The other process's check that gave it away (Unix ms).
    pub other_check_at: i64,
}

impl std::fmt::Display for DuplicateInstance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "INSTANCE_ID={} is already used by another live instance checking this database \
             (its check at {}): give every instance its own INSTANCE_ID",
            self.instance_id,
            rfc3339(self.other_check_at)
        )
    }
}

impl std::error::Error for DuplicateInstance {}

/// What this process knows of the checks stored under its own name.
#[derive(Debug, Default)]
pub struct NameWatch {
    /// Times of the rounds this process recorded (the last day's), and its first.
    own_rounds: BTreeSet<i64>,
    first_round: Option<i64>,
    /// Whether another process was checking under this name when this one started: the latest
    /// stored check under it before this process's first round was fresh then. `None` until the
    /// stored checks were read.
    taken_at_start: Option<bool>,
    /// Latest check time found written under this name by another process, and when that was
    /// last logged.
    foreign_seen: Option<i64>,
    warned_at: Option<i64>,
}

impl NameWatch {
    /// Records the times of this process's own checks, made at `now_ms`.
    pub fn own_round(&mut self, times: impl IntoIterator<Item = i64>, now_ms: i64) {
        for at in times {
            self.own_rounds.insert(at);
            self.first_round = Some(self.first_round.map_or(at, |first| first.min(at)));
        }
        self.own_rounds = self.own_rounds.split_off(&(now_ms - DAY_MS - HOUR_MS));
    }

    /// The latest check time found stored under this name that this process did not write.
    pub fn foreign_seen(&self) -> Option<i64> {
        self.foreign_seen
    }

    /// Looks at `raw` (every viewpoint's stored checks, fresh from the database) for checks under
    /// `me` that this process did not write. Returns why this process must stop when it is the
    /// newcomer; warns (at most hourly) when it was there first.
    pub fn notice(
        &mut self,
        raw: &[RawCheck],
        me: &str,
        now_ms: i64,
        interval_ms: i64,
    ) -> Option<DuplicateInstance> {
        let first = self.first_round?;
        let window = live_window_ms(interval_ms);
        let mine = raw.iter().filter(|c| c.instance_id == me);
        if self.taken_at_start.is_none() {
            let before = mine
                .clone()
                .filter(|c| c.checked_at < first)
                .map(|c| c.checked_at)
                .max();
            self.taken_at_start = Some(before.is_some_and(|at| at >= first - window));
        }
        let foreign: Vec<i64> = mine
            .filter(|c| c.checked_at >= first && !self.own_rounds.contains(&c.checked_at))
            .map(|c| c.checked_at)
            .collect();
        let latest = foreign.iter().copied().max()?;
        if self.taken_at_start == Some(true) {
            if let Some(&other_check_at) = foreign.iter().find(|at| **at <= first + window) {
                return Some(DuplicateInstance {
                    instance_id: me.to_owned(),
                    other_check_at,
                });
            }
        }
        let newer = self.foreign_seen.is_none_or(|seen| latest > seen);
        self.foreign_seen = Some(self.foreign_seen.map_or(latest, |seen| seen.max(latest)));
        let due = self
            .warned_at
            .is_none_or(|at| now_ms - at >= WARNING_EVERY_MS);
        if newer && due {
            self.warned_at = Some(now_ms);
            tracing::warn!(
                instance_id = me,
                foreign_check_at = %rfc3339(latest),
                "status: another process is writing checks as INSTANCE_ID={me}: its checks mix \
                 with this one's and each opens its own copy of every incident; give every \
                 instance its own INSTANCE_ID (a process started while this one was checking \
                 stops by itself)"
            );
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: i64 = 1_800_000_000_000;
    const INTERVAL: i64 = 30_000;

    fn check(at: i64) -> RawCheck {
        RawCheck {
            component: "db".into(),
            instance_id: "one".into(),
            checked_at: at,
            healthy: 1,
            latency_us: 1000,
            error: None,
        }
    }

    /// Checks under "one" at `T0` plus each of `offsets`.
    fn checks(offsets: &[i64]) -> Vec<RawCheck> {
        offsets.iter().map(|offset| check(T0 + offset)).collect()
    }

    fn watch_from(first: i64) -> NameWatch {
        let mut watch = NameWatch::default();
        watch.own_round([first], first);
        watch
    }

    #[test]
    fn a_process_started_while_another_checked_under_its_name_must_stop() {
        let mut newcomer = watch_from(T0 + 40_000);
        let stored = checks(&[0, 30_000, 40_000]);
        assert_eq!(newcomer.notice(&stored, "one", T0 + 40_000, INTERVAL), None);
        let stored = checks(&[0, 30_000, 40_000, 60_000]);
        assert_eq!(
            newcomer.notice(&stored, "one", T0 + 70_000, INTERVAL),
            Some(DuplicateInstance {
                instance_id: "one".into(),
                other_check_at: T0 + 60_000
            })
        );
        let sentence = DuplicateInstance {
            instance_id: "one".into(),
            other_check_at: T0,
        }
        .to_string();
        assert!(
            sentence.starts_with("INSTANCE_ID=one is already used"),
            "{sentence}"
        );
        assert!(sentence.ends_with("give every instance its own INSTANCE_ID"));
    }

    #[test]
    fn the_process_that_was_there_first_only_warns() {
        let mut first = watch_from(T0);
        first.own_round([T0 + 30_000, T0 + 60_000], T0 + 60_000);
        let stored = checks(&[0, 30_000, 40_000, 60_000]);
        assert_eq!(first.notice(&stored, "one", T0 + 60_000, INTERVAL), None);
        assert_eq!(first.foreign_seen(), Some(T0 + 40_000));
    }

    #[test]
    fn a_restart_after_its_predecessor_stopped_runs() {
        let mut restarted = watch_from(T0 + 40_000);
        restarted.own_round([T0 + 70_000, T0 + 100_000], T0 + 100_000);
        let stored = checks(&[0, 30_000, 40_000, 70_000, 100_000]);
        assert_eq!(
            restarted.notice(&stored, "one", T0 + 100_000, INTERVAL),
            None
        );
        assert_eq!(restarted.foreign_seen(), None);
    }

    #[test]
    fn a_stale_predecessor_or_a_late_newcomer_stops_nobody() {
        // The last check under the name is older than the live window at start.
        let mut late = watch_from(T0 + 200_000);
        let stored = checks(&[0, 200_000, 230_000]);
        assert_eq!(late.notice(&stored, "one", T0 + 240_000, INTERVAL), None);
        assert_eq!(late.foreign_seen(), Some(T0 + 230_000));
        // Started while the name was taken, but the other check comes after the window.
        let mut newcomer = watch_from(T0 + 40_000);
        let stored = checks(&[30_000, 40_000, 500_000]);
        assert_eq!(
            newcomer.notice(&stored, "one", T0 + 500_000, INTERVAL),
            None
        );
    }
}
