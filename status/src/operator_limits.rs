//! The bounds on what status operators may create, and the per-operator rate of their writes.

use std::{collections::HashMap, sync::Mutex};

pub use mg_domain::notices::OPERATOR_ROLE;
/// Longest title, in characters.
pub const MAX_TITLE_CHARS: usize = 120;
/// Longest update text (Markdown), in characters.
pub const MAX_BODY_CHARS: usize = 4000;
/// Updates one incident or window may have.
pub const MAX_UPDATES: i64 = 25;
/// Incidents and windows open at once (a window is open until it is over).
pub const MAX_OPEN_NOTICES: i64 = 30;
/// A window lasts at most this long.
pub const MAX_WINDOW_MS: i64 = 7 * mg_platform::time::DAY_MS;
/// A window starts at most this far ahead ...
pub const MAX_WINDOW_AHEAD_MS: i64 = 90 * mg_platform::time::DAY_MS;
/// ... and at most this far back (a window entered late, for work already under way).
pub const MAX_WINDOW_BEHIND_MS: i64 = mg_platform::time::DAY_MS;
/// Writes one operator may make per minute.
pub const WRITES_PER_MINUTE: u32 = 20;
/// Operator log lines one read returns.
pub const LOG_READ: i64 = 200;

/// Counts each operator's writes per minute (a fixed window; operators are few, and the map is
/// emptied when it holds more than [`MAX_TRACKED`] of them).
#[derive(Debug, Default)]
pub struct WriteLimiter {
    counts: Mutex<HashMap<String, (i64, u32)>>,
}

/// Operators tracked at most.
const MAX_TRACKED: usize = 1000;

impl WriteLimiter {
    /// Counts one write of `operator` at `now_ms`; `Err(ms until the next minute)` over the limit.
    pub fn take(&self, operator: &str, now_ms: i64) -> Result<(), i64> {
        let minute = now_ms.div_euclid(60_000);
        let mut counts = self
            .counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if counts.len() > MAX_TRACKED {
            counts.retain(|_, (at, _)| *at == minute);
        }
        let slot = counts.entry(operator.to_owned()).or_insert((minute, 0));
        if slot.0 != minute {
            *slot = (minute, 0);
        }
        if slot.1 >= WRITES_PER_MINUTE {
            return Err((minute + 1) * 60_000 - now_ms);
        }
        slot.1 += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_operator_gets_a_minute_s_writes_then_waits_for_the_next_minute() {
        let limiter = WriteLimiter::default();
        for _ in 0..WRITES_PER_MINUTE {
            assert_eq!(limiter.take("a", 60_000), Ok(()));
        }
        assert_eq!(limiter.take("a", 90_000), Err(30_000));
        assert_eq!(limiter.take("b", 90_000), Ok(()));
        assert_eq!(limiter.take("a", 120_000), Ok(()));
    }
}
