//! The status answers, serialised once per round of checks: each body with its strong `ETag`, so a
//! request costs a map lookup and a copy of a reference-counted buffer.

use std::collections::HashMap;

use axum::{
    body::Bytes,
    extract::FromRequestParts,
    http::{header, request::Parts, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};

use super::{badge, feed, series, statuspage, summary::Summary};

pub const JSON: &str = "application/json";
pub const SVG: &str = "image/svg+xml";
pub const ATOM: &str = "application/atom+xml; charset=utf-8";
/// Answers change at most once per round of checks; caches and pollers revalidate after a few
/// seconds (a 304 costs nothing).
pub const CACHE_JSON: &str = "public, max-age=5, must-revalidate";
/// Badges are embedded in READMEs behind image proxies: a minute is fresh enough.
pub const CACHE_BADGE: &str = "public, max-age=60";
pub const CACHE_FEED: &str = "public, max-age=60";

/// Bodies at least this large also get a gzip copy, made once per round (a 90-day history is
/// about 60 KB of JSON, a few KB compressed; a badge is not worth it).
const GZIP_FROM_BYTES: usize = 1024;

/// One ready answer.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub body: Bytes,
    pub etag: HeaderValue,
    /// The body gzip-compressed, with its own strong tag (the plain tag plus `-gz`).
    pub gzip: Option<(Bytes, HeaderValue)>,
    pub content_type: &'static str,
    pub cache_control: &'static str,
}

impl Rendered {
    pub fn new(
        body: impl Into<Bytes>,
        content_type: &'static str,
        cache_control: &'static str,
    ) -> Self {
        let body = body.into();
        let digest = ring::digest::digest(&ring::digest::SHA256, &body);
        let hex: String = digest.as_ref()[..12]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let etag = HeaderValue::from_str(&format!("\"{hex}\""))
            .unwrap_or(HeaderValue::from_static("\"0\""));
        let gzip = (body.len() >= GZIP_FROM_BYTES)
            .then(|| crate::site::pages::rendered::gzip(&body))
            .flatten()
            .map(Bytes::from)
            .and_then(|copy| {
                let tag = HeaderValue::from_str(&format!("\"{hex}-gz\"")).ok()?;
                Some((copy, tag))
            });
        Self {
            body,
            etag,
            gzip,
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

    /// 304 when `If-None-Match` names this body's ETag or its gzip copy's (or `*`), else 200 with
    /// the body, gzip-compressed when the request accepts gzip and there is a copy.
    pub fn answer(&self, request: &IfNoneMatch) -> Response {
        let (body, etag, gzipped) = match (&self.gzip, request.gzip) {
            (Some((copy, tag)), true) => (copy, tag, true),
            _ => (&self.body, &self.etag, false),
        };
        let matches = request
            .tags
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|tag| tag.trim().trim_start_matches("W/"))
            .any(|tag| {
                tag == "*"
                    || tag.as_bytes() == self.etag.as_bytes()
                    || self
                        .gzip
                        .as_ref()
                        .is_some_and(|(_, gz)| tag.as_bytes() == gz.as_bytes())
            });
        let headers = [
            (header::ETAG, etag.clone()),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static(self.cache_control),
            ),
            (
                header::ACCESS_CONTROL_ALLOW_ORIGIN,
                HeaderValue::from_static("*"),
            ),
            (header::VARY, HeaderValue::from_static("accept-encoding")),
        ];
        if matches {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
        let mut response = (
            StatusCode::OK,
            headers,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static(self.content_type),
            )],
            body.clone(),
        )
            .into_response();
        if gzipped {
            response
                .headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
        response
    }
}

/// What a status request says about caching and encoding: its `If-None-Match` values (none,
/// usually: then nothing is copied) and whether it accepts gzip.
#[derive(Debug, Default)]
pub struct IfNoneMatch {
    pub tags: Vec<HeaderValue>,
    pub gzip: bool,
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
            gzip: crate::precomputed::negotiate::accepts_gzip(&parts.headers),
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
            let series = series::histories(snapshot, &incidents, &component.id, summary.updated_ms);
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
