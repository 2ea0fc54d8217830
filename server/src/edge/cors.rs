//! Cross-origin calls: only from `ALLOWED_ORIGINS`, with credentials, echoing the exact origin.
//! Hand-written rather than tower-http's layer because the identity SDK's preflights ask for
//! `x-descope-*` headers, which a fixed header list cannot express.

use std::sync::Arc;

use axum::{
    extract::Request,
    http::{header, HeaderMap, HeaderValue, Method, StatusCode},
    response::{IntoResponse, Response},
};

const ALLOW_METHODS: &str = "GET, POST";
const MAX_AGE_SECONDS: &str = "600";

/// The allowed origins, exactly as browsers send them (no trailing slash).
#[derive(Debug, Clone)]
pub struct Cors {
    origins: Arc<Vec<HeaderValue>>,
}

impl Cors {
    pub fn new(origins: &[String]) -> Self {
        Self {
            origins: Arc::new(
                origins
                    .iter()
                    .filter_map(|origin| HeaderValue::from_str(origin).ok())
                    .collect(),
            ),
        }
    }

    fn allowed(&self, headers: &HeaderMap) -> Option<HeaderValue> {
        let origin = headers.get(header::ORIGIN)?;
        self.origins
            .iter()
            .any(|o| o == origin)
            .then(|| origin.clone())
    }
}

/// Whether every header a preflight asks for may be sent: `Authorization`, `Content-Type`, the app's
/// `X-Session-Id` and the identity SDK's `x-descope-*` headers.
fn headers_allowed(requested: &str) -> bool {
    requested
        .split(',')
        .map(|name| name.trim().to_ascii_lowercase())
        .filter(|name| !name.is_empty())
        .all(|name| {
            name == "authorization"
                || name == "content-type"
                || name == "x-session-id"
                || name.starts_with("x-descope-")
        })
}

impl Cors {
    /// The request's `Origin` when it is one of the allowed origins.
    pub fn allowed_origin(&self, headers: &HeaderMap) -> Option<HeaderValue> {
        self.allowed(headers)
    }

    /// The answer to a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`), or `None`
    /// for any other request. A preflight from an origin that is not allowed gets no CORS headers.
    pub fn preflight(&self, request: &Request, origin: Option<&HeaderValue>) -> Option<Response> {
        let is_preflight = request.method() == Method::OPTIONS
            && request
                .headers()
                .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
        if !is_preflight {
            return None;
        }
        let mut response = StatusCode::NO_CONTENT.into_response();
        let out = response.headers_mut();
        out.insert(
            header::VARY,
            HeaderValue::from_static(
                "origin, access-control-request-method, access-control-request-headers",
            ),
        );
        if let Some(origin) = origin {
            out.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
            out.insert(
                header::ACCESS_CONTROL_ALLOW_CREDENTIALS,
                HeaderValue::from_static("true"),
            );
            out.insert(
                header::ACCESS_CONTROL_ALLOW_METHODS,
                HeaderValue::from_static(ALLOW_METHODS),
            );
            out.insert(
                header::ACCESS_CONTROL_MAX_AGE,
                HeaderValue::from_static(MAX_AGE_SECONDS),
            );
            let requested = request
                .headers()
                .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            if headers_allowed(requested) {
                if let Ok(value) = HeaderValue::from_str(requested) {
                    out.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, value);
                }
            }
        }
        Some(response)
    }

    /// Marks an ordinary response: `Vary: origin` always, the allow headers for an allowed origin.
    pub fn decorate(origin: Option<HeaderValue>, response: &mut Response) {
        let out = response.headers_mut();
        out.append(header::VARY, HeaderValue::from_static("origin"));
        if let Some(origin) = origin {
            out.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
            out.insert(
                header::ACCESS_CONTROL_ALLOW_CREDENTIALS,
                HeaderValue::from_static("true"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::headers_allowed;

    #[test]
    fn only_authorization_content_type_and_sdk_headers_pass_a_preflight() {
        assert!(headers_allowed("authorization,content-type"));
        assert!(headers_allowed(
            "Authorization, x-descope-sdk-name, X-Descope-SDK-Version"
        ));
        assert!(headers_allowed(""));
        assert!(!headers_allowed("authorization, x-evil"));
        assert!(headers_allowed("authorization, content-type, x-session-id"));
        assert!(!headers_allowed("cookie"));
    }
}
