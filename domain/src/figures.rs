//! Figures as every page writes them: the server's status badges, the landing page's cards and the
//! status page (both through the browser core) say an uptime the same way.
//!
//! Written without `core::fmt`: formatting machinery would weigh on the browser's `.wasm`.

/// `n` in decimal.
pub fn number(n: u64) -> String {
    let mut digits = Vec::new();
    let mut rest = n;
    loop {
        digits.push(b'0' + (rest % 10) as u8);
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    digits.reverse();
    String::from_utf8(digits).unwrap_or_default()
}

/// `units` hundredths (or tenths, ...: `decimals`, 0-2) as a decimal number, trailing zeros of the
/// fraction dropped when `trim`.
pub fn decimal(units: u64, decimals: u32, trim: bool) -> String {
    let scale = 10u64.pow(decimals);
    let mut out = number(units / scale);
    if decimals == 0 {
        return out;
    }
    let mut fraction = number(units % scale);
    while fraction.len() < decimals as usize {
        fraction.insert(0, '0');
    }
    if trim {
        while fraction.ends_with('0') {
            fraction.pop();
        }
    }
    if !fraction.is_empty() {
        out.push('.');
        out.push_str(&fraction);
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
    }
}
