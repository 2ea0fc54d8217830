//! The status answers, serialised once per round of checks and kept precomputed (`precomputed`):
//! a request costs a map lookup and a copy of a reference-counted buffer.

use std::{
    collections::HashMap,
    sync::{Arc, Weak},
};

use axum::{
    body::Bytes,
    http::{header, HeaderValue, StatusCode},
    response::Response,
};
use mg_domain::{
    notices::NoticeStatus,
    status::{History, PageBody, PageHistory, Range, Summary},
};

use super::{series, snapshot::Snapshot};
use mg_platform::precomputed::{
    negotiate::IfNoneMatch, reuse::Reuse, Compress, Encoding, Precomputed,
};
use mg_status_formats::{badge, feed, notices_html, statuspage};

pub const JSON: &str = "application/json";
pub const SVG: &str = "image/svg+xml";
pub const HTML: &str = "text/html; charset=utf-8";
pub const ATOM: &str = "application/atom+xml; charset=utf-8";
/// Answers change at most once per round of checks; caches and pollers revalidate after a few
/// seconds (a 304 costs nothing).
pub const CACHE_JSON: &str = "public, max-age=5, must-revalidate";
/// Badges are embedded in READMEs behind image proxies: a minute is fresh enough.
pub const CACHE_BADGE: &str = "public, max-age=60";
pub const CACHE_FEED: &str = "public, max-age=60";

/// One status answer, serialised and compressed once per round.
#[derive(Debug, Clone)]
pub struct ReadyAnswer {
    /// The body and its gzip and Brotli copies, each with its own strong tag.
    pub copies: Precomputed,
    pub content_type: &'static str,
    pub cache_control: &'static str,
}

impl ReadyAnswer {
    pub fn new(
        body: impl Into<Bytes>,
        content_type: &'static str,
        cache_control: &'static str,
    ) -> Self {
        Self {
            copies: Precomputed::new(body, Compress::EVERY_ROUND),
            content_type,
            cache_control,
        }
    }

    /// [`Self::new`], its copies joined from those `reuse` kept of the pieces the body shares with
    /// the last round's answers.
    pub fn reusing(
        reuse: &mut Reuse,
        body: impl Into<Bytes>,
        content_type: &'static str,
        cache_control: &'static str,
    ) -> Self {
        Self {
            copies: reuse.precomputed(body, Compress::EVERY_ROUND),
            content_type,
            cache_control,
        }
    }

    fn json(reuse: &mut Reuse, value: &impl serde::Serialize) -> Self {
        Self::reusing(
            reuse,
            serde_json::to_vec(value).unwrap_or_else(|_| b"{}".to_vec()),
            JSON,
            CACHE_JSON,
        )
    }

    /// 304 when `If-None-Match` names one of this body's tags (or `*`), else 200 with the body,
    /// compressed when the request accepts an encoding there is a copy in.
    pub fn answer(&self, request: &IfNoneMatch) -> Response {
        let mut response = self.copies.answer(
            StatusCode::OK,
            HeaderValue::from_static(self.content_type),
            request.encoding,
            &request.tags,
        );
        let headers = response.headers_mut();
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(self.cache_control),
        );
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        response
    }
}

/// Every status answer of one round.
#[derive(Debug, Clone)]
pub struct Published {
    pub status: ReadyAnswer,
    /// `(component, range)` -> series.
    pub history: HashMap<(String, Range), ReadyAnswer>,
    pub statuspage_summary: ReadyAnswer,
    pub statuspage_status: ReadyAnswer,
    pub statuspage_components: ReadyAnswer,
    /// `/api/v2/incidents.json` and `/api/v2/incidents/unresolved.json`.
    pub statuspage_incidents: ReadyAnswer,
    pub statuspage_unresolved: ReadyAnswer,
    /// `/api/v2/scheduled-maintenances.json`, `.../upcoming.json`, `.../active.json`.
    pub maintenances: [ReadyAnswer; 3],
    /// `/status/notices/list` (the fragment the status page inserts) and `/status/notices` (a page).
    pub notices_fragment: ReadyAnswer,
    pub notices_page: ReadyAnswer,
    pub badges: HashMap<String, ReadyAnswer>,
    pub feed: ReadyAnswer,
    /// The component ids, for the 400 message of an unknown one.
    pub components: Vec<String>,
    /// `GET /api/status/page`: the summary and each component's 90-day and 24-hour series in one
    /// body, so the status page asks once per round.
    pub page: ReadyAnswer,
    /// The incremental page answer of the round, made and compressed once: each series from its
    /// second-newest bucket on (what a client that polls every round misses), and the earliest
    /// `since` it serves ([`Published::page_since`]).
    page_recent: Option<(ReadyAnswer, String)>,
    /// The summary and the series the page answers were made from.
    page_parts: PageBody,
}

/// Buckets of the 24-hour and of the 90-day series the incremental page answer carries: an hour
/// and a bucket of the first (15-minute buckets), two days of the second, so it serves a client
/// whose last answer is up to an hour old (one that polls every round, or a page in a background
/// tab polled less often).
const RECENT_POINTS: (usize, usize) = (5, 2);

/// The newest `count` points of `series`.
fn newest_points(series: &History, count: usize) -> History {
    History {
        points: series.points[series.points.len().saturating_sub(count)..].to_vec(),
        ..series.clone()
    }
}

/// The incremental page answer of `parts` and the earliest `since` it serves (a client's `since`
/// at or after the start of every series' first point it carries misses nothing); `None` when
/// it would carry every point (the full page serves then).
fn recent_page(parts: &PageBody, reuse: &mut Reuse) -> Option<(ReadyAnswer, String)> {
    let history: Vec<PageHistory> = parts
        .history
        .iter()
        .map(|h| PageHistory {
            component: h.component.clone(),
            daily: newest_points(&h.daily, RECENT_POINTS.1),
            recent: newest_points(&h.recent, RECENT_POINTS.0),
        })
        .collect();
    let cut_short = parts.history.iter().zip(&history).any(|(full, recent)| {
        full.daily.points.len() > recent.daily.points.len()
            || full.recent.points.len() > recent.recent.points.len()
    });
    let from = history
        .iter()
        .flat_map(|h| [h.daily.points.first(), h.recent.points.first()])
        .flatten()
        .map(|point| point.start.clone())
        .max()?;
    let body = PageBody {
        summary: parts.summary.clone(),
        history,
        since: Some(from.clone()),
    };
    cut_short.then(|| (ReadyAnswer::json(reuse, &body), from))
}

impl Published {
    /// Every answer of the round at `now_ms` that `summary` was computed for from `snapshot`,
    /// compressed reusing what `reuse` kept of the last round's.
    pub fn new(summary: &Summary, snapshot: &Snapshot, now_ms: i64, reuse: &mut Reuse) -> Self {
        let incidents: Vec<_> = summary
            .open_incidents
            .iter()
            .chain(&summary.recent_incidents)
            .cloned()
            .collect();
        let mut history = HashMap::new();
        let mut badges = HashMap::new();
        let mut page_history = Vec::new();
        for component in &summary.components {
            let series = series::histories(
                snapshot,
                &incidents,
                &component.id,
                now_ms,
                (summary.check_interval_seconds * 1000).max(60_000),
            );
            let [recent, _, daily] = &series;
            page_history.push(PageHistory {
                component: component.id.clone(),
                daily: daily.clone(),
                recent: recent.clone(),
            });
            for (range, series) in Range::ALL.into_iter().zip(series) {
                history.insert(
                    (component.id.clone(), range),
                    ReadyAnswer::json(reuse, &series),
                );
            }
            badges.insert(
                component.id.clone(),
                ReadyAnswer::reusing(reuse, badge::render(component), SVG, CACHE_BADGE),
            );
        }
        let page_parts = PageBody {
            summary: summary.clone(),
            history: page_history,
            since: None,
        };
        let notices_page = ReadyAnswer::reusing(
            reuse,
            notices_html::page(summary, &page_parts.history),
            HTML,
            CACHE_JSON,
        );
        Self {
            page: ReadyAnswer::json(reuse, &page_parts),
            page_recent: recent_page(&page_parts, reuse),
            page_parts,
            status: ReadyAnswer::json(reuse, summary),
            history,
            statuspage_summary: ReadyAnswer::json(reuse, &statuspage::summary_json(summary)),
            statuspage_status: ReadyAnswer::json(reuse, &statuspage::status_json(summary)),
            statuspage_components: ReadyAnswer::json(reuse, &statuspage::components_json(summary)),
            statuspage_incidents: ReadyAnswer::json(reuse, &statuspage::incidents_json(summary)),
            statuspage_unresolved: ReadyAnswer::json(reuse, &statuspage::unresolved_json(summary)),
            notices_fragment: ReadyAnswer::reusing(
                reuse,
                notices_html::fragment(summary, 3),
                HTML,
                CACHE_JSON,
            ),
            notices_page,
            maintenances: [
                None,
                Some(NoticeStatus::Scheduled),
                Some(NoticeStatus::InProgress),
            ]
            .map(|which| ReadyAnswer::json(reuse, &statuspage::maintenances_json(summary, which))),
            badges,
            feed: ReadyAnswer::reusing(reuse, feed::render(summary), ATOM, CACHE_FEED),
            components: summary.components.iter().map(|c| c.id.clone()).collect(),
        }
    }

    /// The summary these answers were made from.
    pub fn page_summary(&self) -> &Summary {
        &self.page_parts.summary
    }

    /// The page answer for a client that holds this page as of `since` (the `updated_at` of its
    /// last answer). When `since` is at or after the start of the incremental answer's first
    /// point of every series, that answer, made and compressed once a round: the full summary,
    /// and of each series its newest buckets, from the one holding `since` on. Otherwise the full
    /// page as made for the round, under its own tags. The incremental answer is another body
    /// than the full page's, so it never carries that body's strong tag: it carries the weak one,
    /// `W/` and the full page's tag, which says "the same state as that page once merged".
    /// `If-None-Match` compares weakly, so the client's next request with it is a 304 until the
    /// next round of checks.
    pub fn page_since(&self, since: &str, request: &IfNoneMatch) -> Response {
        let Some((rendered, from)) = &self.page_recent else {
            return self.page.answer(request);
        };
        if since < from.as_str() {
            return self.page.answer(request);
        }
        let mut response = rendered.answer(request);
        let (full, _) = self.page.copies.encoded(Encoding::Identity);
        let weak = full
            .etag
            .to_str()
            .ok()
            .and_then(|tag| HeaderValue::from_str(&format!("W/{tag}")).ok());
        match weak {
            Some(weak) => {
                response.headers_mut().insert(header::ETAG, weak);
            }
            // Never happens (the tag is hex in quotes); without a tag the client asks in full.
            None => {
                response.headers_mut().remove(header::ETAG);
            }
        }
        response
    }
}

/// The notices' timelines' pages made for one round's answers (`timelines`), kept beside them.
#[derive(Debug, Default)]
pub struct TimelinePages {
    pub(crate) round: Weak<Published>,
    /// `from` (empty: the newest notice) -> the page.
    pub(crate) pages: HashMap<String, ReadyAnswer>,
}

impl TimelinePages {
    /// Whether these pages were made for `published`'s round.
    pub(crate) fn are_of(&self, published: &Arc<Published>) -> bool {
        self.round
            .upgrade()
            .is_some_and(|round| Arc::ptr_eq(&round, published))
    }
}
