//! The bounds on what status operators may create, and the per-operator rate of their writes.

// The text bounds live in mg-domain, where the request body cap is computed from them.
pub use mg_domain::notices::{MAX_BODY_CHARS, MAX_TITLE_CHARS, OPERATOR_ROLE};
/// Updates one incident or window may have.
pub const MAX_UPDATES: i64 = 25;
/// Corrections (edits) one update may have; a delete is always taken, once. Each keeps the text it
/// replaced, so without a cap one notice's corrections could grow by a row per edit for as long as
/// it lives, and every publish reads them.
pub const MAX_REVISIONS: i64 = 10;
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

/// Each operator's writes: [`WRITES_PER_MINUTE`] a minute, in bursts of as many, for at most
/// [`MAX_TRACKED`] operators (the least recent forgotten first).
pub type WriteLimiter = mg_platform::rate_limit::KeyedLimiter<Box<str>>;

/// Operators tracked at most.
pub const MAX_TRACKED: usize = 1000;

/// The limiter of operator writes.
pub fn write_limiter() -> WriteLimiter {
    WriteLimiter::new(WRITES_PER_MINUTE, WRITES_PER_MINUTE, MAX_TRACKED)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn an_operator_gets_a_minute_s_writes_then_waits_for_the_next_token() {
        let limiter = write_limiter();
        for _ in 0..WRITES_PER_MINUTE {
            assert_eq!(limiter.take("a".into(), 60_000), Ok(()));
        }
        assert_eq!(
            limiter.take("a".into(), 60_000),
            Err(Duration::from_millis(3_000))
        );
        assert_eq!(limiter.take("b".into(), 60_000), Ok(()));
        assert_eq!(limiter.take("a".into(), 63_000), Ok(()));
    }
}
