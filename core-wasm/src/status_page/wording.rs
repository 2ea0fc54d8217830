//! Numbers, dates and durations as the status page writes them, without `core::fmt` (it would
//! weigh on the .wasm). Uptimes are written by mg-domain's `format_uptime`, the rule the landing
//! page's cards and the server's badges share.

use mg_domain::calendar::{civil_from_days, DAY_MS};
pub use mg_domain::{
    calendar::parse_utc_ms as parse_time,
    figures::{decimal, format_uptime, number},
};

use crate::text::join;

/// Two digits (the last two of `n`).
pub fn two(n: i64) -> String {
    let n = n.rem_euclid(100) as u64;
    join(&[if n < 10 { "0" } else { "" }, &number(n)])
}

/// "1 incident", "3 incidents".
pub fn count(n: u64, one: &str, many: &str) -> String {
    join(&[&number(n), " ", if n == 1 { one } else { many }])
}

/// "1.27 ms", "12.3 ms", "145 ms"; "—" without a figure.
pub fn format_ms(ms: Option<f64>) -> String {
    let Some(ms) = ms.filter(|m| m.is_finite() && *m >= 0.0) else {
        return "—".to_owned();
    };
    let decimals = if ms >= 100.0 {
        0
    } else if ms >= 10.0 {
        1
    } else {
        2
    };
    let units = (ms * 10f64.powi(decimals as i32)).round() as u64;
    join(&[&decimal(units, decimals, false), " ms"])
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

fn month_name(month: i64) -> &'static str {
    MONTHS[(month.clamp(1, 12) - 1) as usize]
}

/// "2026-11-24" of a day number.
pub fn iso_day(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    join(&[&number(y.max(0) as u64), "-", &two(m), "-", &two(d)])
}

/// "24 Nov 2026" of a day number.
pub fn format_day(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    join(&[
        &number(d as u64),
        " ",
        month_name(m),
        " ",
        &number(y.max(0) as u64),
    ])
}

/// "14:03" (UTC).
pub fn clock(ms: i64) -> String {
    let minutes = ms.div_euclid(60_000);
    join(&[&two(minutes / 60 % 24), ":", &two(minutes % 60)])
}

/// "24 Nov, 14:03" (UTC).
pub fn stamp(ms: i64) -> String {
    let (_, m, d) = civil_from_days(ms.div_euclid(DAY_MS));
    join(&[&number(d as u64), " ", month_name(m), ", ", &clock(ms)])
}

/// "45 min", "1 h 5 min"; at least a minute.
pub fn duration(from: i64, to: i64) -> String {
    let minutes = (((to - from) as f64) / 60_000.0).round().max(1.0) as u64;
    if minutes < 60 {
        return join(&[&number(minutes), " min"]);
    }
    join(&[&number(minutes / 60), " h ", &number(minutes % 60), " min"])
}
