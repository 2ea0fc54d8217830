//! The status page (/apotheosis, spec 4): one round of checks every 30 000 ms, and every word and
//! figure the page shows.
//!
//! A round is the spec's two checks (`/health`, `/db-health`), the queue URL when one is known, and
//! one request for the server's status (`/api/status/page`: the summary with each component's
//! 90-day and 24-hour series). The first round downloads the page; later rounds revalidate it with
//! the server's `ETag` (a 304 changes nothing) and ask only for the buckets from the last answer's
//! `updated_at` on, which are merged into what the machine holds. The page renders [`StatusView`].

use serde::{Deserialize, Serialize};

use crate::api::{self, ErrorBody};
use crate::health::{
    HealthValue, API_CHECK_FAILED, DB_CHECK_FAILED, POLL_INTERVAL_MS, QUEUE_CHECK_FAILED,
};
use crate::input::lenient;
use crate::text::join;
use mg_domain::calendar::{civil_from_days, days_from_civil};

/// Daily bars on the page, the last one today (UTC).
pub const DAYS: usize = 90;
/// 15-minute buckets of the latency chart (24 hours).
pub const RECENT_BUCKETS: usize = 96;
/// The request for the whole page.
pub const PAGE_PATH: &str = "/api/status/page";
const DAY_MS: i64 = 86_400_000;

// ---------------------------------------------------------------------------------------------
// What the server sends (read leniently: an odd field reads as absent, never loses the rest).

/// Uptime percentages per window; `None` without checks in it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct UptimeFigures {
    #[serde(rename = "24h", default, deserialize_with = "lenient")]
    pub day: Option<f64>,
    #[serde(rename = "7d", default, deserialize_with = "lenient")]
    pub week: Option<f64>,
    #[serde(rename = "30d", default, deserialize_with = "lenient")]
    pub month: Option<f64>,
    #[serde(rename = "90d", default, deserialize_with = "lenient")]
    pub quarter: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct LatencyFigures {
    #[serde(default, deserialize_with = "lenient")]
    pub p50_ms: Option<f64>,
    #[serde(default, deserialize_with = "lenient")]
    pub p95_ms: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct ComponentStatus {
    #[serde(default, deserialize_with = "lenient")]
    pub id: String,
    #[serde(default, deserialize_with = "lenient")]
    pub name: String,
    #[serde(default, deserialize_with = "lenient")]
    pub uptime: UptimeFigures,
    #[serde(default, deserialize_with = "lenient")]
    pub latency_24h: Option<LatencyFigures>,
    #[serde(default, deserialize_with = "lenient")]
    pub last_checked_at: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Incident {
    #[serde(default, deserialize_with = "lenient")]
    pub id: String,
    #[serde(default, deserialize_with = "lenient")]
    pub component_name: String,
    #[serde(default, deserialize_with = "lenient")]
    pub started_at: String,
    #[serde(default, deserialize_with = "lenient")]
    pub ended_at: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub first_error: String,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Summary {
    #[serde(default, deserialize_with = "lenient")]
    pub updated_at: String,
    #[serde(default, deserialize_with = "lenient")]
    pub components: Vec<ComponentStatus>,
    #[serde(default, deserialize_with = "lenient")]
    pub open_incidents: Vec<Incident>,
    #[serde(default, deserialize_with = "lenient")]
    pub recent_incidents: Vec<Incident>,
}

/// One bucket of a series. Counts are read as `f64`: the browser's `JSON.parse` gives numbers,
/// which the core's reader hands over as `f64` only.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Point {
    #[serde(default, deserialize_with = "lenient")]
    pub start: String,
    #[serde(default, deserialize_with = "lenient")]
    pub checks: f64,
    #[serde(default, deserialize_with = "lenient")]
    pub failures: f64,
    #[serde(default, deserialize_with = "lenient")]
    pub uptime: Option<f64>,
    #[serde(default, deserialize_with = "lenient")]
    pub latency_p50_ms: Option<f64>,
    #[serde(default, deserialize_with = "lenient")]
    pub latency_p95_ms: Option<f64>,
    #[serde(default, deserialize_with = "lenient")]
    pub incidents: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Series {
    #[serde(default, deserialize_with = "lenient")]
    pub points: Vec<Point>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct PageHistory {
    #[serde(default, deserialize_with = "lenient")]
    pub component: String,
    #[serde(default, deserialize_with = "lenient")]
    pub daily: Series,
    #[serde(default, deserialize_with = "lenient")]
    pub recent: Series,
}

/// The body of `GET /api/status/page`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct PageAnswer {
    #[serde(default, deserialize_with = "lenient")]
    pub summary: Summary,
    #[serde(default, deserialize_with = "lenient")]
    pub history: Vec<PageHistory>,
    /// Set in an incremental answer: the series hold only their points from this time's bucket on.
    #[serde(default, deserialize_with = "lenient")]
    pub since: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// What the hook is asked to do.
// (The types below derive `Tsify` with the `status` feature only, so their TypeScript declarations
// ship in `mg-core/status`, not in the machines' `.d.ts`.)

/// The requests of one round; each result is reported back with `round`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "status", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub struct RoundPlan {
    pub round: u32,
    pub check_api: bool,
    pub check_db: bool,
    /// GET this URL (the Telekinesis queue); a 2xx answer is healthy.
    pub queue_url: Option<String>,
    /// GET this path of the API for the status page; `None`: no API (ethereal).
    pub status_path: Option<String>,
    /// Send as `If-None-Match` with the status request.
    pub if_none_match: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// What the page shows.

/// How a day's bar is coloured: no checks, all (or nearly all) up, some downtime, a real outage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "status", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum Tone {
    None,
    Up,
    Minor,
    Down,
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
    /// "99.98% uptime, 1 incident" or "no data".
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
    /// Exactly [`DAYS`] bars once the series arrived, else empty (and `bars_message` says why).
    pub bars: Vec<DayBar>,
    pub bars_message: Option<String>,
    /// One sentence for screen readers.
    pub bars_summary: String,
    /// No day of the 90 has checks yet.
    pub empty: bool,
    pub p50_text: String,
    pub p95_text: String,
    /// The 24-hour buckets (all [`RECENT_BUCKETS`]); empty before they arrive.
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
    pub cards: Vec<CardView>,
    /// `false` on an ethereal deployment (no API, no incidents to list).
    pub show_incidents: bool,
    pub incidents: Vec<IncidentView>,
    /// Said instead of the list (loading, unavailable, none).
    pub incidents_message: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// The machine.

/// Held history of one component, oldest bucket first. (Vectors, not maps: a `BTreeMap` would
/// add about 4 KB gzip to the .wasm, for at most 96 entries.)
#[derive(Debug, Clone, Default)]
struct Held {
    component: String,
    daily: Vec<Point>,
    recent: Vec<Point>,
}

#[derive(Debug, Clone)]
pub struct StatusPageMachine {
    ethereal: bool,
    queue_url: Option<String>,
    api: HealthValue,
    db: HealthValue,
    queue: HealthValue,
    round: u32,
    next_round_at: Option<u64>,
    /// The clock of the last round, for "today" on the bars.
    now_ms: u64,
    summary: Option<Summary>,
    history: Vec<Held>,
    etag: Option<String>,
    /// The last status request's failure, cleared by a good answer.
    error: Option<String>,
    /// Bumped whenever the live values may have changed, so the page re-reads them only then.
    version: u32,
    /// Bumped whenever [`StatusPageMachine::view`] may have changed.
    view_version: u32,
}

impl StatusPageMachine {
    /// `ethereal` (and not forced): no API, so no api, db or status requests; `queue_url`: the
    /// Telekinesis queue's address, if the deployment names one.
    pub fn new(ethereal: bool, force: bool, queue_url: Option<String>) -> Self {
        let ethereal = ethereal && !force;
        Self {
            ethereal,
            queue_url: queue_url.filter(|url| !url.trim().is_empty()),
            api: if ethereal {
                HealthValue::NotApplicable
            } else {
                HealthValue::Unknown
            },
            db: if ethereal {
                HealthValue::NotApplicable
            } else {
                HealthValue::Unknown
            },
            queue: HealthValue::Unknown,
            round: 0,
            next_round_at: None,
            now_ms: 0,
            summary: None,
            history: Vec::new(),
            etag: None,
            error: None,
            version: 0,
            view_version: 0,
        }
    }

    /// Changes whenever [`StatusPageMachine::live`] may give something new.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// Changes whenever [`StatusPageMachine::view`] may give something new: only with the server's
    /// answers and at midnight (UTC), not with each live check.
    pub fn view_version(&self) -> u32 {
        self.view_version
    }

    /// When the hook must call [`StatusPageMachine::poll`] again.
    pub fn next_deadline(&self) -> Option<u64> {
        self.next_round_at
    }

    fn changed(&mut self) {
        self.version = self.version.wrapping_add(1);
    }

    /// Starts a round if one is due (the first call always is); `None` when it is not time yet.
    pub fn poll(&mut self, now_ms: u64) -> Option<RoundPlan> {
        if self.next_round_at.is_some_and(|at| now_ms < at) {
            return None;
        }
        self.round = self.round.wrapping_add(1).max(1);
        self.next_round_at = Some(now_ms.saturating_add(POLL_INTERVAL_MS));
        if self.now_ms / DAY_MS as u64 != now_ms / DAY_MS as u64 {
            self.view_version = self.view_version.wrapping_add(1);
        }
        self.now_ms = now_ms;
        let status_path = (!self.ethereal).then(|| match &self.summary {
            Some(summary) if !summary.updated_at.is_empty() => {
                join(&[PAGE_PATH, "?since=", &encode_component(&summary.updated_at)])
            }
            _ => PAGE_PATH.to_owned(),
        });
        Some(RoundPlan {
            round: self.round,
            check_api: !self.ethereal,
            check_db: !self.ethereal,
            queue_url: self.queue_url.clone(),
            if_none_match: status_path.as_ref().and(self.etag.clone()),
            status_path,
        })
    }

    fn current(&self, round: u32) -> bool {
        round == self.round && round != 0
    }

    /// `/health` answered `status` (`None`: no answer). Returns the console message to log.
    pub fn api_result(&mut self, round: u32, status: Option<u16>) -> Option<&'static str> {
        if !self.current(round) || self.ethereal {
            return None;
        }
        self.api = HealthValue::from_status(status);
        self.changed();
        (self.api == HealthValue::Unhealthy).then_some(API_CHECK_FAILED)
    }

    /// `/db-health` answered `status` (`None`: no answer). Returns the console message to log.
    pub fn db_result(&mut self, round: u32, status: Option<u16>) -> Option<&'static str> {
        if !self.current(round) || self.ethereal {
            return None;
        }
        self.db = HealthValue::from_status(status);
        self.changed();
        (self.db == HealthValue::Unhealthy).then_some(DB_CHECK_FAILED)
    }

    /// The queue URL answered `status` (`None`: no answer, or the URL cannot be fetched): 2xx is
    /// healthy, anything else unhealthy. Returns the console message to log.
    pub fn queue_result(&mut self, round: u32, status: Option<u16>) -> Option<&'static str> {
        if !self.current(round) || self.queue_url.is_none() {
            return None;
        }
        let healthy = status.is_some_and(api::is_success);
        self.queue = if healthy {
            HealthValue::Healthy
        } else {
            HealthValue::Unhealthy
        };
        self.changed();
        (!healthy).then_some(QUEUE_CHECK_FAILED)
    }

    /// The status request's answer: `status` (`None`: no answer), its `ETag`, and the body read
    /// as a page (`None` when it was not one) or as an error body.
    pub fn status_result(
        &mut self,
        round: u32,
        status: Option<u16>,
        etag: Option<String>,
        page: Option<PageAnswer>,
        error: Option<ErrorBody>,
    ) {
        if !self.current(round) || self.ethereal {
            return;
        }
        match (status, page) {
            // Not modified: what the machine holds is current, and nothing is shown anew
            // unless an earlier failure was.
            (Some(304), _) => {
                if self.error.take().is_none() {
                    return;
                }
            }
            (Some(code), Some(page)) if api::is_success(code) => {
                self.merge(page);
                self.etag = etag.filter(|tag| !tag.is_empty());
                self.error = None;
            }
            (Some(code), None) if api::is_success(code) => {
                self.error = Some(api::SERVER_ERROR.to_owned());
            }
            _ => self.error = api::error_message(status, error.as_ref()),
        }
        self.view_version = self.view_version.wrapping_add(1);
    }

    fn merge(&mut self, page: PageAnswer) {
        let incremental = page.since.is_some() && self.summary.is_some();
        if !incremental {
            self.history.clear();
        }
        for series in page.history {
            let at = match self
                .history
                .iter()
                .position(|h| h.component == series.component)
            {
                Some(at) => at,
                None => {
                    self.history.push(Held {
                        component: series.component,
                        ..Held::default()
                    });
                    self.history.len() - 1
                }
            };
            let held = &mut self.history[at];
            put(&mut held.daily, series.daily.points, DAYS);
            put(&mut held.recent, series.recent.points, RECENT_BUCKETS);
        }
        let components = &page.summary.components;
        self.history
            .retain(|held| components.iter().any(|c| c.id == held.component));
        self.summary = Some(page.summary);
    }

    /// The live values `(api, db, queue)`.
    pub fn health(&self) -> (HealthValue, HealthValue, HealthValue) {
        (self.api, self.db, self.queue)
    }

    /// The three cards: id, name, live value, and whether nothing is checked for it.
    fn cards(&self) -> [(&'static str, &'static str, HealthValue, bool); 3] {
        let no_queue = self.ethereal || self.queue_url.is_none();
        [
            ("api", "API", self.api, self.ethereal),
            ("db", "Database", self.db, self.ethereal),
            ("queue", "Telekinesis queue", self.queue, no_queue),
        ]
    }

    /// Each card's live value and its word.
    pub fn live(&self) -> Vec<LiveValue> {
        self.cards()
            .into_iter()
            .map(|(id, _, health, unchecked)| LiveValue {
                id: id.to_owned(),
                health,
                label: health_label(health, unchecked).to_owned(),
            })
            .collect()
    }

    /// What the page shows now, besides the live values.
    pub fn view(&self) -> StatusView {
        let cards = self
            .cards()
            .into_iter()
            .map(|(id, name, _, unchecked)| self.card(id, name, unchecked))
            .collect();
        let (incidents, incidents_message) = match &self.summary {
            None if self.error.is_some() => (
                Vec::new(),
                Some("The incident list is unavailable right now.".to_owned()),
            ),
            None => (Vec::new(), Some("Loading incidents…".to_owned())),
            Some(summary) => {
                let all: Vec<IncidentView> = summary
                    .open_incidents
                    .iter()
                    .chain(&summary.recent_incidents)
                    .map(incident_view)
                    .collect();
                let message = all
                    .is_empty()
                    .then(|| "No incidents in the last 90 days.".to_owned());
                (all, message)
            }
        };
        StatusView {
            cards,
            show_incidents: !self.ethereal,
            incidents,
            incidents_message,
        }
    }

    fn card(&self, id: &str, name: &str, unchecked: bool) -> CardView {
        let absent = match id {
            "queue" if self.ethereal || self.queue_url.is_none() => {
                "No Telekinesis queue is configured for this deployment, so it has no history."
            }
            "queue" => "The server does not check the queue: it has no queue address configured.",
            "api" if self.ethereal => "Ethereal deployments have no API, so nothing is checked.",
            "api" => "The server has not checked its API yet.",
            _ if self.ethereal => "Ethereal deployments have no database, so nothing is checked.",
            _ => "This deployment has no database to check.",
        };
        let status = self
            .summary
            .as_ref()
            .and_then(|s| s.components.iter().find(|c| c.id == id));
        let history_message = if status.is_some() {
            String::new()
        } else if self.summary.is_some() {
            absent.to_owned()
        } else if let Some(error) = &self.error {
            join(&[
                "History unavailable right now (",
                error,
                "). The live state above still updates every 30 seconds.",
            ])
        } else {
            "Loading history…".to_owned()
        };
        let figures = status.map(|s| s.uptime.clone()).unwrap_or_default();
        let uptime = [
            ("24 h", figures.day),
            ("7 days", figures.week),
            ("30 days", figures.month),
            ("90 days", figures.quarter),
        ]
        .into_iter()
        .map(|(label, value)| UptimeCell {
            label: label.to_owned(),
            value: format_uptime(value).unwrap_or_else(|| "—".to_owned()),
        })
        .collect();
        let checked_at = status.and_then(|s| s.last_checked_at.clone());
        CardView {
            id: id.to_owned(),
            name: name.to_owned(),
            unchecked,
            note: if unchecked {
                absent.to_owned()
            } else {
                String::new()
            },
            checked_clock: checked_at
                .as_deref()
                .and_then(parse_time)
                .map(|ms| join(&[&clock(ms), " UTC"])),
            checked_at,
            uptime,
            history: status.map(|s| self.history_view(id, name, s)),
            history_message,
        }
    }

    fn history_view(&self, id: &str, name: &str, status: &ComponentStatus) -> HistoryView {
        let held = self.history.iter().find(|held| held.component == id);
        let latency = status.latency_24h.clone().unwrap_or_default();
        let (bars, bars_message) = match held {
            Some(held) => (day_bars(&held.daily, self.now_ms), None),
            None => (Vec::new(), Some("Loading history…".to_owned())),
        };
        let empty = held.is_some() && bars.iter().all(|bar| bar.tone == Tone::None);
        let rows: Vec<LatencyRow> = held
            .map(|held| held.recent.iter().map(latency_row).collect())
            .unwrap_or_default();
        let latency_message = if held.is_none() {
            Some("Loading latency…".to_owned())
        } else if rows.iter().all(|row| row.checks == 0) {
            Some("No checks recorded yet".to_owned())
        } else {
            None
        };
        HistoryView {
            bars_summary: bars_summary(name, &bars, status.uptime.quarter),
            bars,
            bars_message,
            empty,
            p50_text: format_ms(latency.p50_ms),
            p95_text: format_ms(latency.p95_ms),
            latency: rows,
            latency_message,
        }
    }
}

/// Merges `points` into `held` by bucket start (the server's RFC 3339 times sort as text) and
/// keeps the newest `keep`.
fn put(held: &mut Vec<Point>, points: Vec<Point>, keep: usize) {
    for point in points {
        match held.binary_search_by(|p| p.start.as_str().cmp(point.start.as_str())) {
            Ok(at) => held[at] = point,
            Err(at) => held.insert(at, point),
        }
    }
    let extra = held.len().saturating_sub(keep);
    held.drain(..extra);
}

/// The word a health value reads as. A card where nothing is checked says 'Unknown' for a value
/// no check will ever set (spec 4: the queue "stays unknown" without a URL); elsewhere an unknown
/// value is a check under way.
pub fn health_label(value: HealthValue, unchecked: bool) -> &'static str {
    match value {
        HealthValue::Healthy => "Healthy",
        HealthValue::Unhealthy => "Unhealthy",
        HealthValue::NotApplicable => "Not applicable",
        HealthValue::Unknown if unchecked => "Unknown",
        HealthValue::Unknown => "Checking",
    }
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

/// Exactly [`DAYS`] bars, oldest first, the last one the UTC day of `now_ms`. Days the server sent
/// fill their bar; any other day of the window is a "no data" bar.
pub fn day_bars(daily: &[Point], now_ms: u64) -> Vec<DayBar> {
    let today = now_ms as i64 / DAY_MS;
    (0..DAYS as i64)
        .rev()
        .map(|back| {
            let date = iso_day(today - back);
            let point = daily
                .iter()
                .rev()
                .find(|p| p.start.get(..10) == Some(date.as_str()));
            let uptime = point.filter(|p| p.checks > 0.0).and_then(|p| p.uptime);
            let incidents = point.and_then(|p| p.incidents).unwrap_or(0.0).max(0.0) as u32;
            let day = format_day(today - back);
            let detail = match uptime {
                None => "no data".to_owned(),
                Some(u) => join(&[
                    &format_uptime(Some(u)).unwrap_or_default(),
                    " uptime, ",
                    &count(incidents as u64, "incident", "incidents"),
                ]),
            };
            DayBar {
                label: join(&[&day, ": ", &detail]),
                tone: tone_of(uptime),
                uptime,
                incidents,
                date,
                day,
                detail,
            }
        })
        .collect()
}

/// One sentence for screen readers: the period's figure, the days with data and with incidents.
pub fn bars_summary(name: &str, bars: &[DayBar], uptime90: Option<f64>) -> String {
    let with_data: Vec<(&DayBar, f64)> = bars
        .iter()
        .filter_map(|bar| Some((bar, bar.uptime?)))
        .collect();
    let Some(&(worst, low)) = with_data.iter().min_by(|a, b| a.1.total_cmp(&b.1)) else {
        return join(&[name, ": no checks recorded in the last 90 days yet."]);
    };
    let incident_days = bars.iter().filter(|bar| bar.incidents > 0).count();
    let figure = match format_uptime(uptime90) {
        Some(figure) => join(&[&figure, " uptime"]),
        None => "uptime not known".to_owned(),
    };
    join(&[
        name,
        ", last 90 days: ",
        &figure,
        ", ",
        &count(with_data.len() as u64, "day", "days"),
        " with checks, ",
        &number(incident_days as u64),
        " with incidents, lowest day ",
        &worst.day,
        " at ",
        &format_uptime(Some(low)).unwrap_or_default(),
        ".",
    ])
}

fn latency_row(point: &Point) -> LatencyRow {
    let checked = point.checks > 0.0;
    let p50 = point.latency_p50_ms.filter(|_| checked);
    let p95 = point.latency_p95_ms.filter(|_| checked);
    LatencyRow {
        start: point.start.clone(),
        clock: parse_time(&point.start).map(clock).unwrap_or_default(),
        p50_text: format_ms(p50),
        p95_text: format_ms(p95),
        p50,
        p95,
        checks: point.checks.max(0.0) as u64,
        failures: point.failures.max(0.0) as u64,
    }
}

fn incident_view(incident: &Incident) -> IncidentView {
    let started = parse_time(&incident.started_at);
    let ended = incident.ended_at.as_deref().and_then(parse_time);
    let ongoing = incident.ended_at.is_none();
    let tail = match (started, ended) {
        (Some(from), Some(to)) => join(&[" UTC (", &duration(from, to), ")"]),
        _ if ongoing => " UTC, still open".to_owned(),
        _ => " UTC".to_owned(),
    };
    IncidentView {
        id: incident.id.clone(),
        component_name: incident.component_name.clone(),
        ongoing,
        state: if ongoing { "Ongoing" } else { "Resolved" }.to_owned(),
        started_at: incident.started_at.clone(),
        started: started.map(stamp).unwrap_or_default(),
        ended_at: incident.ended_at.clone().unwrap_or_default(),
        ended: ended.map(stamp).unwrap_or_default(),
        tail,
        error: incident.first_error.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// Wording of numbers and times, without `core::fmt` (it would weigh on the .wasm).

/// `n` in decimal.
fn number(n: u64) -> String {
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

fn two(n: i64) -> String {
    let n = n.rem_euclid(100) as u64;
    join(&[if n < 10 { "0" } else { "" }, &number(n)])
}

/// "1 incident", "3 incidents".
fn count(n: u64, one: &str, many: &str) -> String {
    join(&[&number(n), " ", if n == 1 { one } else { many }])
}

/// A non-negative value with `decimals` (0-2) digits after the point, trailing zeros dropped
/// when `trim`.
fn decimal(units: u64, decimals: u32, trim: bool) -> String {
    let scale = 10u64.pow(decimals);
    let int = number(units / scale);
    if decimals == 0 {
        return int;
    }
    let mut frac = number(units % scale);
    while frac.len() < decimals as usize {
        frac.insert(0, '0');
    }
    if trim {
        while frac.ends_with('0') {
            frac.pop();
        }
    }
    if frac.is_empty() {
        int
    } else {
        join(&[&int, ".", &frac])
    }
}

/// "99.98%" (up to two decimals, no trailing zeros), or `None` without a figure. Floored, not
/// rounded: 99.996% must not read as a perfect 100%.
pub fn format_uptime(uptime: Option<f64>) -> Option<String> {
    let uptime = uptime.filter(|u| u.is_finite())?;
    let hundredths = (uptime * 100.0).floor().max(0.0) as u64;
    Some(join(&[&decimal(hundredths, 2, true), "%"]))
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

/// Unix milliseconds of `YYYY-MM-DDTHH:MM:SS[.fff]Z` (UTC, as the server writes times).
pub fn parse_time(text: &str) -> Option<i64> {
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

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

fn month_name(month: i64) -> &'static str {
    MONTHS[(month.clamp(1, 12) - 1) as usize]
}

/// "2026-11-24" of a day number.
fn iso_day(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    join(&[&number(y.max(0) as u64), "-", &two(m), "-", &two(d)])
}

/// "24 Nov 2026" of a day number.
fn format_day(days: i64) -> String {
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
fn clock(ms: i64) -> String {
    let minutes = ms.div_euclid(60_000);
    join(&[&two(minutes / 60 % 24), ":", &two(minutes % 60)])
}

/// "24 Nov, 14:03" (UTC).
fn stamp(ms: i64) -> String {
    let (_, m, d) = civil_from_days(ms.div_euclid(DAY_MS));
    join(&[&number(d as u64), " ", month_name(m), ", ", &clock(ms)])
}

/// "45 min", "1 h 5 min"; at least a minute.
fn duration(from: i64, to: i64) -> String {
    let minutes = (((to - from) as f64) / 60_000.0).round().max(1.0) as u64;
    if minutes < 60 {
        return join(&[&number(minutes), " min"]);
    }
    join(&[&number(minutes / 60), " h ", &number(minutes % 60), " min"])
}

/// `text` as a URL query value (the server's times need only `:` escaped; anything else outside
/// the unreserved set is escaped too).
fn encode_component(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(text.len() + 8);
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 15)]));
        }
    }
    out
}

// Host only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
