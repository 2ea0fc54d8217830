//! Figures as every page writes them: the server's status badges, the landing page's cards and the
//! status page (both through the browser core) say an uptime the same way.
//!
//! Written without `core::fmt`: formatting machinery would weigh on the browser's `.wasm`.

/// `n` in decimal.
pub fn number(n: u64) -> String {
    decimal(n, 0, false)
}

/// `units` hundredths (or tenths, ...: `decimals`, 0-3) as a decimal number, trailing zeros of the
/// fraction dropped when `trim`. Digit by digit into a buffer: the smallest code for the `.wasm`.
pub fn decimal(units: u64, decimals: u32, trim: bool) -> String {
    let decimals = decimals.min(3) as usize;
    // Digit values, least significant first; at least one digit before the point.
    let mut digits = [0u8; 24];
    let mut len = 0;
    let mut rest = units;
    while rest > 0 || len <= decimals {
        digits[len] = (rest % 10) as u8;
        rest /= 10;
        len += 1;
    }
    let mut dropped = 0;
    while trim && dropped < decimals && digits[dropped] == 0 {
        dropped += 1;
    }
    let mut out = String::with_capacity(len + 1);
    for digit in digits[decimals..len].iter().rev() {
        out.push(char::from(b'0' + *digit));
    }
    if dropped < decimals {
        out.push('.');
        for digit in digits[dropped..decimals].iter().rev() {
            out.push(char::from(b'0' + *digit));
        }
    }
    out
}

/// "99.98%" (up to two decimals, no trailing zeros), or `None` without a figure. Floored, not
/// rounded: 99.996% must not read as a perfect 100%.
pub fn format_uptime(uptime: Option<f64>) -> Option<String> {
    let uptime = uptime.filter(|u| u.is_finite())?;
    let hundredths = (uptime * 100.0).floor().max(0.0) as u64;
    let mut out = decimal(hundredths, 2, true);
    out.push('%');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uptimes_are_floored_to_two_decimals_without_trailing_zeros() {
        for (uptime, shown) in [
            (100.0, "100%"),
            (99.999, "99.99%"),
            (99.996, "99.99%"),
            (99.5, "99.5%"),
            (97.5, "97.5%"),
            (0.0, "0%"),
        ] {
            assert_eq!(
                format_uptime(Some(uptime)).as_deref(),
                Some(shown),
                "{uptime}"
            );
        }
        assert_eq!(format_uptime(None), None);
        assert_eq!(format_uptime(Some(f64::NAN)), None);
        assert_eq!(format_uptime(Some(f64::INFINITY)), None);
    }

    #[test]
    fn numbers_and_decimals_are_written_in_full() {
        assert_eq!(number(0), "0");
        assert_eq!(number(u64::MAX), u64::MAX.to_string());
        assert_eq!(decimal(127, 2, false), "1.27");
        assert_eq!(decimal(1000, 2, false), "10.00");
        assert_eq!(decimal(1000, 2, true), "10");
        assert_eq!(decimal(5, 2, true), "0.05");
        assert_eq!(decimal(145, 0, false), "145");
        for units in (0..100_000).step_by(7).chain([u64::MAX]) {
            assert_eq!(number(units), units.to_string());
            let two = format!("{}.{:02}", units / 100, units % 100);
            assert_eq!(decimal(units, 2, false), two);
            let trimmed = two.trim_end_matches('0').trim_end_matches('.');
            assert_eq!(decimal(units, 2, true), trimmed, "{units}");
        }
    }
}
