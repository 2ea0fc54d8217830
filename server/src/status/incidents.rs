//! Incidents from one viewpoint: two consecutive failed checks of a component open one (starting at
//! the first failure, with its error); the next healthy check closes it.

use std::collections::HashMap;

use super::store::{IncidentRow, RawCheck};

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
