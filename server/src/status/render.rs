//! The status answers, serialised once per round of checks and kept precomputed (`precomputed`):
//! a request costs a map lookup and a copy of a reference-counted buffer.

use std::collections::HashMap;

use axum::{
    body::Bytes,
    extract::FromRequestParts,
    http::{header, request::Parts, HeaderValue, StatusCode},
    response::Response,
};

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
        for component in &summary.components {
            let series = series::histories(
                snapshot,
                &incidents,
                &component.id,
                summary.updated_ms,
                (summary.check_interval_seconds * 1000).max(60_000),
            );
            for (range, series) in series::RANGES.into_iter().zip(series) {
                history.insert((component.id.clone(), range), Rendered::json(&series));
            }
            badges.insert(
                component.id.clone(),
                Rendered::new(badge::render(component), SVG, CACHE_BADGE),
            );
        }
        Self {
            status: Rendered::json(summary),
            history,
            statuspage_summary: Rendered::json(&statuspage::summary_json(summary)),
            statuspage_status: Rendered::json(&statuspage::status_json(summary)),
            badges,
            feed: Rendered::new(feed::render(summary), ATOM, CACHE_FEED),
            components: summary.components.iter().map(|c| c.id.clone()).collect(),
        }
    }
}
