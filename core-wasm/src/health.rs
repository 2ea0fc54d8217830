//! Health of the deployed stack (spec 4): api, db and queue values, polled every 30 000 ms; the
//! same rounds read the server's uptimes (`GET /api/status`) that the cards show under them.

use serde::{Deserialize, Serialize};

/// Time between two rounds of checks.
pub const POLL_INTERVAL_MS: u64 = 30_000;
pub const API_CHECK_FAILED: &str = "API health check failed";
pub const DB_CHECK_FAILED: &str = "Database health check failed";
pub const QUEUE_CHECK_FAILED: &str = "Telekinesis health check failed";

/// One health value as shown on the status cards.
// Read as well as written: the app hands a value to `healthLabel` for its word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(any(feature = "machines", feature = "status"), derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum HealthValue {
    #[default]
    Unknown,
    Healthy,
    Unhealthy,
    #[serde(rename = "n/a")]
    NotApplicable,
}

impl HealthValue {
    /// 200 is healthy; any other status, or no answer (`None`), is unhealthy.
    pub fn from_status(status: Option<u16>) -> Self {
        if status == Some(200) {
            Self::Healthy
        } else {
            Self::Unhealthy
        }
    }
}

/// The word a health value reads as, on the landing page's cards and the status page's alike. A
/// card where nothing is checked (`unchecked`) says 'Unknown' for a value no check will ever set
/// (spec 4: the queue "stays unknown" without a URL); elsewhere an unknown value is a check under
/// way.
pub fn health_label(value: HealthValue, unchecked: bool) -> &'static str {
    match value {
        HealthValue::Healthy => "Healthy",
        HealthValue::Unhealthy => "Unhealthy",
        HealthValue::NotApplicable => "Not applicable",
        HealthValue::Unknown if unchecked => "Unknown",
        HealthValue::Unknown => "Checking",
    }
}

/// The three values shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(any(feature = "machines", feature = "status"), derive(tsify::Tsify))]
pub struct HealthSnapshot {
    pub api: HealthValue,
    pub db: HealthValue,
    pub queue: HealthValue,
}

/// Which HTTP checks the hook must run for one round; results carry `round` back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(any(feature = "machines", feature = "status"), derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CheckPlan {
    pub round: u32,
    pub check_api: bool,
    pub check_db: bool,
    /// Read the server's uptimes (`GET /api/status`) this round: with the API's check, so never
    /// on an ethereal deployment unless its checks are forced.
    pub read_uptime: bool,
}

/// Which endpoint a result belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    Api,
    Db,
}

#[derive(Debug, Clone)]
pub struct HealthMachine {
    snapshot: HealthSnapshot,
    skip_http: bool,
    queue_known: bool,
    round: u32,
    next_poll_at: Option<u64>,
}

impl HealthMachine {
    /// `ethereal` without `force` turns the api and db checks into n/a; `queue_known` says
    /// whether a telekinesis queue URL is configured.
    pub fn new(ethereal: bool, force: bool, queue_known: bool) -> Self {
        Self {
            snapshot: HealthSnapshot::default(),
            skip_http: ethereal && !force,
            queue_known,
            round: 0,
            next_poll_at: None,
        }
    }

    pub fn snapshot(&self) -> HealthSnapshot {
        self.snapshot
    }

    /// When the hook must call [`HealthMachine::poll`] again.
    pub fn next_deadline(&self) -> Option<u64> {
        self.next_poll_at
    }

    /// Starts a round of checks if one is due (the first call is always due: checks run on load).
    /// Returns the checks to run, or `None` when it is not time yet.
    pub fn poll(&mut self, now_ms: u64) -> Option<CheckPlan> {
        if self.next_poll_at.is_some_and(|at| now_ms < at) {
            return None;
        }
        self.round = self.round.wrapping_add(1);
        self.next_poll_at = Some(now_ms.saturating_add(POLL_INTERVAL_MS));
        if self.skip_http {
            self.snapshot.api = HealthValue::NotApplicable;
            self.snapshot.db = HealthValue::NotApplicable;
        }
        if self.queue_known {
            self.snapshot.queue = HealthValue::Healthy;
        }
        Some(CheckPlan {
            round: self.round,
            check_api: !self.skip_http,
            check_db: !self.skip_http,
            read_uptime: !self.skip_http,
        })
    }

    /// Records an HTTP check's status (`None`: the request failed). Results of an older round,
    /// or of a check that was not asked for, are ignored. Returns the console message to log.
    pub fn check_result(
        &mut self,
        round: u32,
        check: Check,
        status: Option<u16>,
    ) -> Option<&'static str> {
        if round != self.round || self.skip_http || self.round == 0 {
            return None;
        }
        let value = HealthValue::from_status(status);
        let (slot, message) = match check {
            Check::Api => (&mut self.snapshot.api, API_CHECK_FAILED),
            Check::Db => (&mut self.snapshot.db, DB_CHECK_FAILED),
        };
        *slot = value;
        (value == HealthValue::Unhealthy).then_some(message)
    }

    /// Reading the queue's configuration failed: the queue is unhealthy. Returns the console message.
    pub fn queue_failed(&mut self) -> &'static str {
        self.snapshot.queue = HealthValue::Unhealthy;
        QUEUE_CHECK_FAILED
    }
}

// Host only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use HealthValue::*;

    #[test]
    fn values_start_unknown_and_checks_run_on_load() {
        let mut machine = HealthMachine::new(false, false, false);
        assert_eq!(
            machine.snapshot(),
            HealthSnapshot {
                api: Unknown,
                db: Unknown,
                queue: Unknown
            }
        );
        assert_eq!(machine.next_deadline(), None);
        let plan = machine.poll(1_000).expect("checks run on load");
        assert!(plan.check_api && plan.check_db && plan.read_uptime);
        assert_eq!(machine.next_deadline(), Some(31_000));
    }

    #[test]
    fn values_cross_as_the_words_the_cards_show() {
        let shown = HealthSnapshot {
            api: Healthy,
            db: NotApplicable,
            queue: Unhealthy,
        };
        assert_eq!(
            serde_json::to_value(shown).expect("serialise"),
            serde_json::json!({"api": "healthy", "db": "n/a", "queue": "unhealthy"})
        );
        assert_eq!(serde_json::to_value(Unknown).expect("serialise"), "unknown");
    }

    #[test]
    fn each_value_reads_back_from_its_word_and_has_a_label() {
        for value in [Unknown, Healthy, Unhealthy, NotApplicable] {
            let word = serde_json::to_value(value).expect("serialise");
            assert_eq!(
                serde_json::from_value::<HealthValue>(word).ok(),
                Some(value)
            );
        }
        assert_eq!(health_label(Unknown, false), "Checking");
        assert_eq!(health_label(Unknown, true), "Unknown");
        assert_eq!(health_label(NotApplicable, false), "Not applicable");
    }

    #[test]
    fn statuses_map_to_values_with_console_messages() {
        let cases = [
            (Some(200), Healthy, None),
            (Some(204), Unhealthy, Some(API_CHECK_FAILED)),
            (Some(503), Unhealthy, Some(API_CHECK_FAILED)),
            (None, Unhealthy, Some(API_CHECK_FAILED)),
        ];
        for (status, value, log) in cases {
            let mut machine = HealthMachine::new(false, false, false);
            let plan = machine.poll(0).expect("due");
            assert_eq!(machine.check_result(plan.round, Check::Api, status), log);
            assert_eq!(machine.snapshot().api, value);
            let db_log = machine.check_result(plan.round, Check::Db, status);
            assert_eq!(db_log, log.map(|_| DB_CHECK_FAILED));
            assert_eq!(machine.snapshot().db, value);
        }
    }

    #[test]
    fn polls_repeat_every_30_000_ms_exactly() {
        let mut machine = HealthMachine::new(false, false, false);
        machine.poll(0).expect("load");
        assert_eq!(machine.poll(29_999), None);
        let second = machine.poll(30_000).expect("due at 30 000");
        assert_eq!(second.round, 2);
        assert_eq!(machine.next_deadline(), Some(60_000));
    }

    #[test]
    fn a_late_result_of_an_old_round_is_ignored() {
        let mut machine = HealthMachine::new(false, false, false);
        let first = machine.poll(0).expect("load");
        let second = machine.poll(30_000).expect("due");
        assert_eq!(
            machine.check_result(second.round, Check::Api, Some(200)),
            None
        );
        assert_eq!(machine.check_result(first.round, Check::Api, None), None);
        assert_eq!(machine.snapshot().api, Healthy);
    }

    #[test]
    fn ethereal_without_force_is_not_applicable_and_fetches_nothing() {
        let mut machine = HealthMachine::new(true, false, false);
        let plan = machine.poll(0).expect("load");
        assert!(!plan.check_api && !plan.check_db && !plan.read_uptime);
        assert_eq!(machine.snapshot().api, NotApplicable);
        assert_eq!(machine.snapshot().db, NotApplicable);
        assert_eq!(
            machine.check_result(plan.round, Check::Api, Some(200)),
            None
        );
        assert_eq!(machine.snapshot().api, NotApplicable);
    }

    #[test]
    fn ethereal_with_force_checks_as_usual() {
        let mut machine = HealthMachine::new(true, true, false);
        let plan = machine.poll(0).expect("load");
        assert!(plan.check_api && plan.check_db && plan.read_uptime);
        machine.check_result(plan.round, Check::Db, Some(200));
        assert_eq!(machine.snapshot().db, Healthy);
    }

    #[test]
    fn the_queue_is_healthy_with_a_url_unknown_without_and_unhealthy_on_error() {
        let mut with_url = HealthMachine::new(false, false, true);
        with_url.poll(0);
        assert_eq!(with_url.snapshot().queue, Healthy);
        assert_eq!(with_url.queue_failed(), "Telekinesis health check failed");
        assert_eq!(with_url.snapshot().queue, Unhealthy);

        let mut without = HealthMachine::new(false, false, false);
        without.poll(0);
        assert_eq!(without.snapshot().queue, Unknown);
    }

    #[test]
    fn console_messages_are_the_spec_text() {
        assert_eq!(API_CHECK_FAILED, "API health check failed");
        assert_eq!(DB_CHECK_FAILED, "Database health check failed");
    }

    proptest! {
        #[test]
        fn any_event_sequence_keeps_the_poll_schedule(
            ethereal: bool, force: bool, queue: bool,
            events in proptest::collection::vec((0u8..4, 0u64..100_000, proptest::option::of(0u16..600)), 0..40)
        ) {
            let mut machine = HealthMachine::new(ethereal, force, queue);
            let mut now = 0u64;
            for (kind, step, status) in events {
                now += step;
                match kind {
                    0 => { if let Some(p) = machine.poll(now) {
                        prop_assert_eq!(p.check_api, !ethereal || force);
                        prop_assert_eq!(p.read_uptime, p.check_api);
                    } }
                    1 => { machine.check_result(machine.round, Check::Api, status); }
                    2 => { machine.check_result(machine.round, Check::Db, status); }
                    _ => { machine.queue_failed(); }
                }
                if let Some(at) = machine.next_deadline() { prop_assert!(at <= now + POLL_INTERVAL_MS); }
                if ethereal && !force && machine.round > 0 {
                    prop_assert_eq!(machine.snapshot().api, NotApplicable);
                }
            }
        }
    }
}
