//! The telekinesis page's demonstration counters (spec 2.6): made-up numbers from a seed, new every 3 s.

use serde::Serialize;

pub const REFRESH_MS: u64 = 3_000;
/// Shown next to the counters so nobody mistakes them for live data.
pub const DEMO_LABEL: &str = "Demo data - randomly generated, not from a live queue";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub struct DemoCounters {
    pub functions_deployed: u32,
    pub invocations_per_minute: u32,
    pub messages_queued: u32,
    pub avg_latency_ms: u32,
    /// Which refresh produced these numbers (0 for the first).
    pub generation: u32,
}

/// splitmix64: tiny, deterministic, good enough for demo numbers.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn in_range(state: &mut u64, low: u32, high: u32) -> u32 {
    let span = u64::from(high - low) + 1;
    // The remainder is below `span`, which fits in u32.
    low + u32::try_from(splitmix(state) % span).unwrap_or(0)
}

#[derive(Debug, Clone)]
pub struct TelekinesisCounters {
    rng: u64,
    counters: DemoCounters,
    next_at: u64,
}

impl TelekinesisCounters {
    pub fn new(seed: u64, now_ms: u64) -> Self {
        let mut rng = seed;
        let counters = Self::draw(&mut rng, 0);
        Self {
            rng,
            counters,
            next_at: now_ms.saturating_add(REFRESH_MS),
        }
    }

    fn draw(rng: &mut u64, generation: u32) -> DemoCounters {
        DemoCounters {
            functions_deployed: in_range(rng, 3, 24),
            invocations_per_minute: in_range(rng, 120, 4_800),
            messages_queued: in_range(rng, 0, 350),
            avg_latency_ms: in_range(rng, 18, 240),
            generation,
        }
    }

    pub fn counters(&self) -> DemoCounters {
        self.counters
    }

    pub fn next_deadline(&self) -> Option<u64> {
        Some(self.next_at)
    }

    /// Draws new numbers when the refresh is due; returns true when they changed. A late tick
    /// (a throttled background tab) draws once and schedules 3 s from now.
    pub fn tick(&mut self, now_ms: u64) -> bool {
        if now_ms < self.next_at {
            return false;
        }
        let generation = self.counters.generation.wrapping_add(1);
        self.counters = Self::draw(&mut self.rng, generation);
        self.next_at = if now_ms - self.next_at < REFRESH_MS {
            self.next_at + REFRESH_MS
        } else {
            now_ms.saturating_add(REFRESH_MS)
        };
        true
    }
}

// Host only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_same_seed_gives_the_same_numbers() {
        let mut a = TelekinesisCounters::new(7, 0);
        let mut b = TelekinesisCounters::new(7, 0);
        assert_eq!(a.counters(), b.counters());
        a.tick(3_000);
        b.tick(3_000);
        assert_eq!(a.counters(), b.counters());
        assert_ne!(
            TelekinesisCounters::new(8, 0).counters(),
            TelekinesisCounters::new(7, 0).counters()
        );
    }

    #[test]
    fn refreshes_every_3_000_ms_exactly() {
        let mut machine = TelekinesisCounters::new(1, 1_000);
        let first = machine.counters();
        assert_eq!(machine.next_deadline(), Some(4_000));
        assert!(!machine.tick(3_999));
        assert_eq!(machine.counters(), first);
        assert!(machine.tick(4_000));
        assert_eq!(machine.counters().generation, 1);
        assert_eq!(machine.next_deadline(), Some(7_000));
        assert!(machine.tick(7_010));
        assert_eq!(
            machine.next_deadline(),
            Some(10_000),
            "no drift from a late timer"
        );
        assert!(machine.tick(60_000));
        assert_eq!(machine.next_deadline(), Some(63_000));
    }

    #[test]
    fn the_label_says_demo() {
        assert!(DEMO_LABEL.starts_with("Demo data"));
    }

    proptest! {
        #[test]
        fn counters_stay_in_their_ranges(seed: u64, steps in proptest::collection::vec(0u64..10_000, 0..30)) {
            let mut machine = TelekinesisCounters::new(seed, 0);
            let mut now = 0;
            for step in steps {
                now += step;
                machine.tick(now);
                let c = machine.counters();
                prop_assert!((3..=24).contains(&c.functions_deployed));
                prop_assert!((120..=4_800).contains(&c.invocations_per_minute));
                prop_assert!(c.messages_queued <= 350);
                prop_assert!((18..=240).contains(&c.avg_latency_ms));
                prop_assert!(machine.next_deadline().is_some_and(|at| at > now && at <= now + REFRESH_MS));
            }
        }
    }
}
