//! The proleptic Gregorian calendar as day numbers (Howard Hinnant's algorithms), for the server's
//! timestamps and the status page's day labels alike, and the one form those timestamps are read in.

/// Days since 1970-01-01 of a civil date.
pub fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// (year, month, day) of a day number (days since 1970-01-01).
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// A day in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

/// Unix milliseconds of `YYYY-MM-DDTHH:MM:SS[.fff]Z` (UTC, as the server writes its times); `None`
/// for anything else.
pub fn parse_utc_ms(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let digits = |from: usize, len: usize| -> Option<i64> {
        let mut value = 0i64;
        for c in b.get(from..from + len)? {
            value = value * 10 + i64::from(c.checked_sub(b'0').filter(|d| *d < 10)?);
        }
        Some(value)
    };
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b.last() != Some(&b'Z') {
        return None;
    }
    let (year, month, day) = (digits(0, 4)?, digits(5, 2)?, digits(8, 2)?);
    let (hour, minute, second) = (digits(11, 2)?, digits(14, 2)?, digits(17, 2)?);
    let millis = match b.get(19) {
        Some(b'.') if b.len() >= 24 => digits(20, 3)?,
        _ => 0,
    };
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some(days * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn day_numbers_and_dates_agree() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(days_from_civil(2024, 2, 29)), (2024, 2, 29));
        assert_eq!(
            days_from_civil(2000, 3, 1) - days_from_civil(2000, 2, 28),
            2
        );
        for days in (-800_000..800_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn server_times_read_as_unix_milliseconds() {
        assert_eq!(parse_utc_ms("1970-01-01T00:00:00.000Z"), Some(0));
        assert_eq!(
            parse_utc_ms("2026-11-22T05:50:37.123Z"),
            Some(1_795_326_637_123)
        );
        assert_eq!(
            parse_utc_ms("2026-11-22T05:50:37Z"),
            Some(1_795_326_637_000)
        );
        for unreadable in [
            "",
            "2026-11-22",
            "2026-13-01T00:00:00Z",
            "2026-11-22T05:50:37.123",
        ] {
            assert_eq!(parse_utc_ms(unreadable), None, "{unreadable}");
        }
    }
}
