//! How a document is sent: in the encoding the request accepts (or 304), with its cache policy,
//! its Content-Security-Policy, and what the page adds (`Vary: Accept`, its Markdown twin's
//! `Link`, cross-origin isolation).

use axum::{
    http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode},
    response::Response,
};

use super::rendered::Rendered;
use crate::precomputed::negotiate;

/// Headers a document is sent with beyond its own.
#[derive(Debug)]
pub(super) struct Extra {
    pub(super) status: StatusCode,
    pub(super) vary_accept: bool,
    pub(super) link: Option<HeaderValue>,
    pub(super) content_location: Option<HeaderValue>,
    /// Cross-origin isolation headers (the route manifest's `isolated` pages).
    pub(super) isolated: bool,
}

impl Extra {
    pub(super) fn status(status: StatusCode) -> Self {
        Self {
            status,
            vary_accept: false,
            link: None,
            content_location: None,
            isolated: false,
        }
    }
}

/// Sends `rendered` in the encoding the request accepts, or 304 when the request already has it.
pub(super) fn respond(rendered: &Rendered, request: &HeaderMap, extra: Extra) -> Response {
    let mut response = rendered.answer(
        extra.status,
        negotiate::encoding(request),
        request.get_all(header::IF_NONE_MATCH),
    );
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if extra.vary_accept {
        headers.insert(
            header::VARY,
            HeaderValue::from_static("accept, accept-encoding"),
        );
    }
    // A 304 carries the policy too: a browser updates its stored headers from it.
    if let Some(csp) = &rendered.csp {
        headers.insert(header::CONTENT_SECURITY_POLICY, csp.clone());
    }
    if let Some(link) = extra.link {
        headers.insert(header::LINK, link);
    }
    if let Some(location) = extra.content_location {
        headers.insert(header::CONTENT_LOCATION, location);
    }
    if extra.isolated {
        headers.insert(
            HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        );
        headers.insert(
            HeaderName::from_static("cross-origin-embedder-policy"),
            HeaderValue::from_static("require-corp"),
        );
    }
    response
}
