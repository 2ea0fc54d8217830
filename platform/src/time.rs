//! Wall-clock helpers: unix milliseconds for storage, RFC 3339 (UTC) for answers.

use std::{
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc,
    },
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

/// An hour in milliseconds (hours and days are UTC ones: periods aligned to the unix epoch).
pub const HOUR_MS: i64 = 3_600_000;
/// A day in milliseconds.
pub const DAY_MS: i64 = 24 * HOUR_MS;

/// Now, in unix milliseconds.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// The clock of the expiries a test must see pass without waiting for them (a session token's
/// `exp`, the identity emulator's codes): the system clock plus an offset that only
/// [`Clock::advance`] changes, shared by every clone (`Config::clock`). The server never advances
/// its own, so outside tests it reads the system clock.
#[derive(Debug, Clone, Default)]
pub struct Clock {
    ahead_ms: Arc<AtomicU64>,
}

impl Clock {
    fn ahead(&self) -> u64 {
        self.ahead_ms.load(Ordering::Relaxed)
    }

    /// Now, in unix milliseconds.
    pub fn now_ms(&self) -> i64 {
        now_ms().saturating_add(i64::try_from(self.ahead()).unwrap_or(i64::MAX))
    }

    /// Now, in whole unix seconds (a JWT's times).
    pub fn now_seconds(&self) -> u64 {
        u64::try_from(self.now_ms() / 1000).unwrap_or(0)
    }

    /// Now, as a monotonic instant.
    pub fn instant(&self) -> Instant {
        Instant::now() + Duration::from_millis(self.ahead())
    }

    /// Moves this clock and every clone of it forward by `by` (tests).
    pub fn advance(&self, by: Duration) {
        let by = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
        self.ahead_ms.fetch_add(by, Ordering::Relaxed);
    }
}

/// `2026-11-22T05:50:37.123Z` for a unix-millisecond time (civil calendar, proleptic Gregorian).
pub fn rfc3339(unix_ms: i64) -> String {
    let days = unix_ms.div_euclid(86_400_000);
    let ms_of_day = unix_ms.rem_euclid(86_400_000);
    let (year, month, day) = mg_domain::calendar::civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        ms_of_day / 3_600_000,
        ms_of_day / 60_000 % 60,
        ms_of_day / 1000 % 60,
        ms_of_day % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::{rfc3339, Clock};
    use std::time::Duration;

    #[test]
    fn a_clock_reads_the_system_time_until_advanced_and_every_clone_moves_with_it() {
        let clock = Clock::default();
        let shared = clock.clone();
        let (before, at) = (super::now_ms(), std::time::Instant::now());
        assert!((clock.now_ms() - before).abs() < 1_000);
        clock.advance(Duration::from_secs(3));
        assert!(shared.now_ms() - before >= 3_000);
        assert!(shared.now_seconds() >= u64::try_from(before / 1000 + 3).expect("positive"));
        assert!(shared.instant() - at >= Duration::from_secs(3));
    }

    #[test]
    fn unix_milliseconds_format_as_utc_rfc3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(rfc3339(1_795_326_637_123), "2026-11-22T05:50:37.123Z");
    }
}
