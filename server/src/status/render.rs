//! The status answers, serialised once per round of checks and kept precomputed (`precomputed`):
//! a request costs a map lookup and a copy of a reference-counted buffer.

use std::collections::HashMap;

use axum::{
    body::Bytes,
    extract::FromRequestParts,
    http::{header, request::Parts, HeaderValue, StatusCode},
    response::Response,
};

use serde::Serialize;

use super::{badge, feed, series, statuspage, summary::Summary};
use crate::precomputed::{negotiate, Compress, Encoding, Precomputed};

pub const JSON: &str = "application/json";
pub const SVG: &str = "image/svg+xml";
pub const ATOM: &str = "application/atom+xml; charset=utf-8";
/// Answers change at most once per round of checks; caches and pollers revalidate after a few
/// seconds (a 304 costs nothing).
pub const CACHE_JSON: &str = "public, max-age=5, must-revalidate";
/// Badges are embedded in READMEs behind image proxies: a minute is fresh enough.
pub const CACHE_BADGE: &str = "public, max-age=60";
pub const CACHE_FEED: &str = "public, max-age=60";

/// One ready answer.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The body and its gzip and Brotli copies, each with its own strong tag.
    pub copies: Precomputed,
    pub content_type: &'static str,
    pub cache_control: &'static str,
}

impl Rendered {
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

    fn json(value: &impl serde::Serialize) -> Self {
        Self::new(
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

/// What a status request says about caching and encoding: its `If-None-Match` values (none,
/// usually: then nothing is copied) and the best encoding it accepts.
#[derive(Debug)]
pub struct IfNoneMatch {
    pub tags: Vec<HeaderValue>,
    pub encoding: Encoding,
}

impl<S: Send + Sync> FromRequestParts<S> for IfNoneMatch {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Self {
            tags: parts
                .headers
                .get_all(header::IF_NONE_MATCH)
                .iter()
                .cloned()
                .collect(),
            encoding: negotiate::encoding(&parts.headers),
        })
    }
}

/// Every status answer of one round.
#[derive(Debug, Clone)]
pub struct Published {
    pub status: Rendered,
    /// `(component, range)` -> series.
    pub history: HashMap<(String, &'static str), Rendered>,
    pub statuspage_summary: Rendered,
    pub statuspage_status: Rendered,
    pub badges: HashMap<String, Rendered>,
    pub feed: Rendered,
    /// The component ids, for the 400 message of an unknown one.
    pub components: Vec<String>,
    /// `GET /api/status/page`: the summary and each component's 90-day and 24-hour series in one
    /// body, so the status page asks once per round.
    pub page: Rendered,
    /// What [`Published::page_since`] cuts the incremental answers from.
    page_parts: PageBody,
}

/// The body of `GET /api/status/page`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "StatusPage"))]
pub struct PageBody {
    pub summary: Summary,
    pub history: Vec<PageHistory>,
    /// Null in the full answer; in an incremental one, the `since` it answers: each series then
    /// holds only its points from the bucket holding that time on, for the client to merge by `start`.
    pub since: Option<String>,
}

/// One component's two series on the status page.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "StatusPageHistory"))]
pub struct PageHistory {
    pub component: String,
    /// The 90-day range (daily buckets, with incidents).
    pub daily: series::History,
    /// The 24-hour range (15-minute buckets).
    pub recent: series::History,
}

/// Where the points of `series` from the bucket holding `since` on begin (a bucket's `start` and
/// `since` are both the server's RFC 3339 form, so they compare as text); 0 when `since` is in
/// the first bucket or before it.
fn first_point_since(series: &series::History, since: &str) -> usize {
    series
        .points
        .iter()
        .rposition(|point| point.start.as_str() <= since)
        .unwrap_or(0)
}

/// The points of `series` from the bucket holding `since` on.
fn points_since(series: &series::History, since: &str) -> series::History {
    series::History {
        points: series.points[first_point_since(series, since)..].to_vec(),
        ..series.clone()
    }
}

impl Published {
    pub fn new(summary: &Summary, snapshot: &super::summary::Snapshot) -> Self {
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
                summary.updated_ms,
                (summary.check_interval_seconds * 1000).max(60_000),
            );
            let [recent, _, daily] = &series;
            page_history.push(PageHistory {
                component: component.id.clone(),
                daily: daily.clone(),
                recent: recent.clone(),
            });
            for (range, series) in series::RANGES.into_iter().zip(series) {
                history.insert((component.id.clone(), range), Rendered::json(&series));
            }
            badges.insert(
                component.id.clone(),
                Rendered::new(badge::render(component), SVG, CACHE_BADGE),
            );
        }
        let page_parts = PageBody {
            summary: summary.clone(),
            history: page_history,
            since: None,
        };
        Self {
            page: Rendered::json(&page_parts),
            page_parts,
            status: Rendered::json(summary),
            history,
            statuspage_summary: Rendered::json(&statuspage::summary_json(summary)),
            statuspage_status: Rendered::json(&statuspage::status_json(summary)),
            badges,
            feed: Rendered::new(feed::render(summary), ATOM, CACHE_FEED),
            components: summary.components.iter().map(|c| c.id.clone()).collect(),
        }
    }

    /// The page answer for a client that holds this page as of `since` (the `updated_at` of its
    /// last answer). When `since` is in the first bucket of every series or before it, nothing
    /// would be left out: the full page as made for the round, compressed, under its own tags.
    /// Otherwise the incremental answer: the full summary, and of each series only the points from
    /// the bucket holding `since` on. It is another body than the full page's, so it never carries
    /// that body's strong tag: it carries the weak one, `W/` and the full page's tag, which says
    /// "the same state as that page once merged". `If-None-Match` compares weakly, so the client's
    /// next request with it is a 304 until the next round of checks. Made per request, so it is
    /// sent uncompressed (a few KB: the summary and the newest buckets).
    pub fn page_since(&self, since: &str, request: &IfNoneMatch) -> Response {
        let nothing_left_out = self.page_parts.history.iter().all(|h| {
            first_point_since(&h.daily, since) == 0 && first_point_since(&h.recent, since) == 0
        });
        if nothing_left_out {
            return self.page.answer(request);
        }
        let body = PageBody {
            summary: self.page_parts.summary.clone(),
            history: self
                .page_parts
                .history
                .iter()
                .map(|h| PageHistory {
                    component: h.component.clone(),
                    daily: points_since(&h.daily, since),
                    recent: points_since(&h.recent, since),
                })
                .collect(),
            since: Some(since.to_owned()),
        };
        let rendered = Rendered {
            copies: Precomputed::new(
                serde_json::to_vec(&body).unwrap_or_else(|_| b"{}".to_vec()),
                Compress {
                    from_bytes: usize::MAX,
                    brotli_quality: 0,
                },
            ),
            content_type: JSON,
            cache_control: CACHE_JSON,
        };
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
