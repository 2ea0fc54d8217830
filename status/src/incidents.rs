//! Incidents from one viewpoint: two consecutive failed checks of a component open one (starting at
//! the first failure, with its error); the next healthy check closes it.

use std::collections::HashMap;

use crate::store::checks::{IncidentRow, RawCheck};

/// Consecutive failures that open an incident.
pub const FAILURES_TO_OPEN: u32 = 2;

#[derive(Debug, Default)]
struct Track {
    consecutive_failures: u32,
    /// Time and error of the first failure of the current run of failures.
    first_failure: Option<(i64, String)>,
    open: Option<IncidentRow>,
}

/// This instance's incident state per component.
#[derive(Debug, Default)]
pub struct IncidentTracker {
    by_component: HashMap<String, Track>,
}

impl IncidentTracker {
    /// Takes over an incident left open by an earlier run of this instance (found in the database at
    /// start), so a restart closes it rather than leaving it open forever. If this run has opened
    /// one of its own already (the database was away at start), the old one ends where the new one
    /// starts: returned, to be stored.
    pub fn adopt(&mut self, incident: IncidentRow) -> Option<IncidentRow> {
        let track = self
            .by_component
            .entry(incident.component.clone())
            .or_default();
        match &track.open {
            None => {
                track.consecutive_failures = FAILURES_TO_OPEN;
                track.open = Some(incident);
                None
            }
            Some(newer) if newer.started_at == incident.started_at => None,
            Some(newer) => Some(IncidentRow {
                ended_at: Some(newer.started_at.max(incident.started_at)),
                ..incident
            }),
        }
    }

    /// Feeds one check; returns the incident it opened or closed, to be stored.
    pub fn observe(&mut self, check: &RawCheck) -> Option<IncidentRow> {
        let track = self
            .by_component
            .entry(check.component.clone())
            .or_default();
        if check.healthy != 0 {
            track.consecutive_failures = 0;
            track.first_failure = None;
            let mut closed = track.open.take()?;
            closed.ended_at = Some(check.checked_at);
            return Some(closed);
        }
        track.consecutive_failures = track.consecutive_failures.saturating_add(1);
        if track.first_failure.is_none() {
            let error = check
                .error
                .clone()
                .unwrap_or_else(|| "Check failed.".into());
            track.first_failure = Some((check.checked_at, error));
        }
        if track.consecutive_failures >= FAILURES_TO_OPEN && track.open.is_none() {
            let (started_at, first_error) = track.first_failure.clone()?;
            let incident = IncidentRow {
                component: check.component.clone(),
                instance_id: check.instance_id.clone(),
                started_at,
                ended_at: None,
                first_error,
            };
            track.open = Some(incident.clone());
            return Some(incident);
        }
        None
    }
}

/// A viewpoint that has not checked for this long (and for three of its own intervals) is gone.
pub const GONE_AFTER_MS: i64 = 5 * 60_000;

/// Open incidents of other viewpoints that stopped checking (a restart under a new `INSTANCE_ID`, a
/// removed instance): nobody else will ever close them, so they end where their viewpoint was last
/// seen. A viewpoint is gone when its last check is older than three of its intervals (read from
/// its last two rounds; `interval_ms` when it has only one) and [`GONE_AFTER_MS`]. `me` is this
/// instance, whose own incidents its tracker closes.
pub fn expire_gone(
    incidents: &[IncidentRow],
    raw: &[RawCheck],
    me: &str,
    now_ms: i64,
    interval_ms: i64,
) -> Vec<IncidentRow> {
    let others_open = incidents
        .iter()
        .any(|i| i.ended_at.is_none() && i.instance_id != me);
    if !others_open {
        // Nothing to close: the day's checks need no walk.
        return Vec::new();
    }
    let mut rounds: HashMap<&str, (i64, Option<i64>)> = HashMap::new();
    for check in raw {
        let (last, before) = rounds
            .entry(check.instance_id.as_str())
            .or_insert((check.checked_at, None));
        if check.checked_at > *last {
            *before = Some(*last);
            *last = check.checked_at;
        } else if check.checked_at < *last && before.is_none_or(|b| check.checked_at > b) {
            *before = Some(check.checked_at);
        }
    }
    incidents
        .iter()
        .filter(|i| i.ended_at.is_none() && i.instance_id != me)
        .filter_map(|incident| {
            let (last, before) = rounds
                .get(incident.instance_id.as_str())
                .copied()
                .unwrap_or((incident.started_at, None));
            let last = last.max(incident.started_at);
            let its_interval = before.map_or(interval_ms, |b| last - b).max(interval_ms);
            let gone_after = (3 * its_interval).max(GONE_AFTER_MS);
            (now_ms - last > gone_after).then(|| IncidentRow {
                ended_at: Some(last),
                ..incident.clone()
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(at: i64, healthy: bool) -> RawCheck {
        RawCheck {
            component: "db".into(),
            instance_id: "a".into(),
            checked_at: at,
            healthy: i64::from(healthy),
            latency_us: 1,
            error: (!healthy).then(|| format!("down at {at}")),
        }
    }

    fn open(instance: &str, started_at: i64) -> IncidentRow {
        IncidentRow {
            component: "db".into(),
            instance_id: instance.into(),
            started_at,
            ended_at: None,
            first_error: "down".into(),
        }
    }

    fn seen(instance: &str, at: i64) -> RawCheck {
        RawCheck {
            instance_id: instance.into(),
            ..check(at, true)
        }
    }

    #[test]
    fn an_incident_of_a_viewpoint_that_stopped_checking_ends_where_it_was_last_seen() {
        let minute = 60_000;
        let incidents = [open("gone", 0), open("here", 0), open("me", 0)];
        let raw = [
            seen("gone", 0),
            seen("gone", 30_000),
            seen("here", 0),
            seen("here", 20 * minute),
        ];
        // Five minutes after its last check it is still only late...
        assert_eq!(
            expire_gone(&incidents, &raw, "me", 30_000 + 5 * minute, 30_000),
            []
        );
        // ... past them it is gone; a viewpoint still checking, and this instance, keep theirs.
        let closed = expire_gone(&incidents, &raw, "me", 20 * minute, 30_000);
        assert_eq!(closed.len(), 1, "{closed:?}");
        assert_eq!(
            (closed[0].instance_id.as_str(), closed[0].ended_at),
            ("gone", Some(30_000))
        );
    }

    #[test]
    fn a_viewpoint_checking_hourly_is_not_gone_between_two_of_its_rounds() {
        let hour = 3_600_000;
        let raw = [seen("slow", 0), seen("slow", hour)];
        let incidents = [open("slow", hour)];
        assert_eq!(expire_gone(&incidents, &raw, "me", 3 * hour, 30_000), []);
        assert_eq!(
            expire_gone(&incidents, &raw, "me", 5 * hour, 30_000).len(),
            1
        );
    }

    #[test]
    fn one_failure_is_not_an_incident_two_are_and_health_closes_it() {
        let mut tracker = IncidentTracker::default();
        assert_eq!(tracker.observe(&check(1, false)), None);
        assert_eq!(tracker.observe(&check(2, true)), None);
        assert_eq!(tracker.observe(&check(3, false)), None);
        let opened = tracker.observe(&check(4, false)).expect("opened");
        assert_eq!((opened.started_at, opened.ended_at), (3, None));
        assert_eq!(opened.first_error, "down at 3");
        assert_eq!(tracker.observe(&check(5, false)), None);
        let closed = tracker.observe(&check(6, true)).expect("closed");
        assert_eq!((closed.started_at, closed.ended_at), (3, Some(6)));
    }

    #[test]
    fn an_adopted_open_incident_is_closed_by_the_next_healthy_check() {
        let mut tracker = IncidentTracker::default();
        let adopted = tracker.adopt(IncidentRow {
            component: "db".into(),
            instance_id: "a".into(),
            started_at: 1,
            ended_at: None,
            first_error: "gone".into(),
        });
        assert_eq!(adopted, None);
        let closed = tracker.observe(&check(9, true)).expect("closed");
        assert_eq!(closed.ended_at, Some(9));
    }

    #[test]
    fn an_old_open_incident_found_after_a_new_one_opened_ends_where_the_new_one_starts() {
        let mut tracker = IncidentTracker::default();
        tracker.observe(&check(10, false));
        tracker.observe(&check(11, false)).expect("opened at 10");
        let old = IncidentRow {
            component: "db".into(),
            instance_id: "a".into(),
            started_at: 1,
            ended_at: None,
            first_error: "gone".into(),
        };
        let closed = tracker.adopt(old).expect("the old one is closed");
        assert_eq!((closed.started_at, closed.ended_at), (1, Some(10)));
    }
}
