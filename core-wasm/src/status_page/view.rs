//! What the page renders: the cards, their history and latency, the incidents, and the live
//! values. The types derive `Tsify` with the `status` feature only, so their TypeScript
//! declarations ship in `mg-core/status`, not in the machines' `.d.ts`.

use serde::Serialize;

use crate::health::HealthValue;

/// How a day's bar is coloured: no checks, all (or nearly all) up, some downtime, a real outage,
/// or checks that failed only inside maintenance windows (`mg_domain::status::Point::in_maintenance`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "status", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum Tone {
    None,
    Up,
    Minor,
    Down,
    Maintenance,
}

/// One day's bar: its tooltip is `day` over `detail`; its accessible name is both.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "status", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct DayBar {
    /// YYYY-MM-DD (UTC).
    pub date: String,
    pub tone: Tone,
    /// Percent up; `None` without checks that day.
    pub uptime: Option<f64>,
    pub incidents: u32,
    /// "24 Nov 2026".
    pub day: String,
    /// "99.98% uptime, 1 incident", "no data", or for maintenance "Maintenance: 2 failed checks
    /// during 'Database upgrade', 1 incident" (on a day that failed outside the window too, the
    /// uptime first and the maintenance after it).
    pub detail: String,
    /// "24 Nov 2026: 99.98% uptime, 1 incident".
    pub label: String,
}

/// One 15-minute bucket of the latency chart and its table row.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "status", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub struct LatencyRow {
    pub start: String,
    /// "14:15" (UTC).
    pub clock: String,
    /// Without checks in the bucket both are `None` (a gap in the lines).
    pub p50: Option<f64>,
    pub p95: Option<f64>,
    pub p50_text: String,
    pub p95_text: String,
    pub checks: u64,
    pub failures: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "status", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct UptimeCell {
    pub label: String,
    pub value: String,
}

/// A component's history block.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "status", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub struct HistoryView {
    /// Exactly `DAYS` (90) bars once the series arrived, else empty (and `bars_message` says why).
    pub bars: Vec<DayBar>,
    pub bars_message: Option<String>,
    /// One sentence for screen readers.
    pub bars_summary: String,
    /// No day of the 90 has checks yet.
    pub empty: bool,
    pub p50_text: String,
    pub p95_text: String,
    /// The 24-hour buckets (all `RECENT_BUCKETS`, 96); empty before they arrive.
    pub latency: Vec<LatencyRow>,
    /// Said instead of the chart: loading, unavailable, or no checks yet.
    pub latency_message: Option<String>,
}

/// One component's card.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "status", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub struct CardView {
    pub id: String,
    pub name: String,
    /// Nothing is checked for this card (no queue URL, or an ethereal deployment): a short card
    /// with `note` only.
    pub unchecked: bool,
    pub note: String,
    /// The server's last check (`datetime`), and as shown ("14:03 UTC").
    pub checked_at: Option<String>,
    pub checked_clock: Option<String>,
    pub uptime: Vec<UptimeCell>,
    /// What the page states of the component (the server's `status`: the checks and the
    /// operators combined), as words ("Major outage") and as its word for styling
    /// ("major_outage"); `None` before the server's answer or without a current status.
    pub status: Option<String>,
    pub status_key: Option<String>,
    /// Why it is not what the checks measure: "Declared by the operators" or "A maintenance
    /// window is in progress"; empty otherwise.
    pub status_note: String,
    /// Present once the server's summary lists the component.
    pub history: Option<HistoryView>,
    /// Said instead of the history while there is none.
    pub history_message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "status", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct IncidentView {
    pub id: String,
    pub component_name: String,
    pub ongoing: bool,
    /// "Ongoing" or "Resolved".
    pub state: String,
    pub started_at: String,
    /// "24 Nov, 14:03".
    pub started: String,
    /// Empty while ongoing.
    pub ended_at: String,
    pub ended: String,
    /// " UTC (1 h 5 min)" or " UTC, still open".
    pub tail: String,
    pub error: String,
}

/// One card's live value from this browser's checks, and the word shown for it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "status", derive(tsify::Tsify))]
pub struct LiveValue {
    pub id: String,
    pub health: HealthValue,
    pub label: String,
}

/// Everything the page shows besides the live values (which change every round, while this
/// changes only with the server's answers).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "status", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub struct StatusView {
    /// The page's overall status in words ("All Systems Operational"), and Statuspage's indicator
    /// for styling (`none`, `minor`, `major`, `critical`, `maintenance`); `None` before the
    /// server's answer.
    pub overall: Option<String>,
    pub overall_indicator: Option<String>,
    /// The operators' posts as the server made them (escaped HTML, safe to insert); until they
    /// came, `notices_message` says why not.
    pub notices_html: Option<String>,
    pub notices_message: Option<String>,
    pub cards: Vec<CardView>,
    /// `false` on an ethereal deployment (no API, no incidents to list).
    pub show_incidents: bool,
    pub incidents: Vec<IncidentView>,
    /// Said instead of the list (loading, unavailable, none).
    pub incidents_message: Option<String>,
}

/// 99.9% and above reads as up (a few failed checks in a day); 95% and above as partial.
pub fn tone_of(uptime: Option<f64>) -> Tone {
    match uptime {
        None => Tone::None,
        Some(u) if u >= 99.9 => Tone::Up,
        Some(u) if u >= 95.0 => Tone::Minor,
        Some(_) => Tone::Down,
    }
}
