//! Response hardening: security headers with a hashed-script CSP, JSON for every error status, body cap.
//! Applied by `frontline`, the outermost layer.

use std::path::Path;

use axum::{
    http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use base64::{engine::general_purpose::STANDARD, Engine};

use crate::{error::AppError, extract::BODY_LIMIT_BYTES};

/// The security headers every response carries, computed once at start.
#[derive(Debug, Clone)]
pub struct SecurityHeaders {
    csp: HeaderValue,
}

impl SecurityHeaders {
    /// Builds the CSP: scripts only from this origin plus the inline scripts of `index.html`,
    /// each allowed by its SHA-256 (so no `unsafe-inline` for scripts).
    pub fn for_app(static_dir: &Path, identity_base_url: Option<&str>) -> Self {
        let html = std::fs::read_to_string(static_dir.join("index.html")).unwrap_or_default();
        Self {
            csp: csp_for(&html, identity_base_url),
        }
    }
}

/// The CSP for a page whose inline scripts are those of `html`. The served `index.html` carries
/// the one computed from the very text it sends (`static_files`), so a rebuilt app cannot be
/// served with the hashes of the previous build.
pub fn csp_for(html: &str, identity_base_url: Option<&str>) -> HeaderValue {
    let hashes: String = inline_scripts(html)
        .map(|script| format!(" 'sha256-{}'", sha256_base64(script)))
        .collect();
    let connect = identity_base_url
        .map(|url| format!(" {}", url.trim_end_matches('/')))
        .unwrap_or_default();
    let csp = format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{hashes}; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self'; \
         connect-src 'self'{connect}; object-src 'none'; base-uri 'self'; \
         form-action 'self'; frame-ancestors 'none'"
    );
    HeaderValue::from_str(&csp)
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'; frame-ancestors 'none'"))
}

/// The bodies of `<script>` elements without a `src` attribute.
fn inline_scripts(html: &str) -> impl Iterator<Item = &str> {
    html.split("<script").skip(1).filter_map(|rest| {
        let (attributes, after) = rest.split_once('>')?;
        if attributes.contains("src=") {
            return None;
        }
        after.split_once("</script>").map(|(body, _)| body)
    })
}

fn sha256_base64(text: &str) -> String {
    STANDARD.encode(ring::digest::digest(&ring::digest::SHA256, text.as_bytes()))
}

/// Whether the request declares (`Content-Length`) a body over the limit: refused before any
/// handler runs.
pub fn declares_too_large_body(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|len| len > BODY_LIMIT_BYTES as u64)
}

impl SecurityHeaders {
    /// Turns the bare error statuses of axum and tower (405, 408, 413) into the API's JSON shape
    /// and adds the security headers (HSTS only when a trusted proxy says the client came over TLS).
    pub fn finish(&self, response: Response, over_tls: bool) -> Response {
        let mut response = as_json_error(response);
        let out = response.headers_mut();
        // Room for the headers below at once instead of growing the map one insert at a time.
        out.reserve(8);
        // A page with its own, stricter policy (the identity emulator's provider page) keeps it.
        out.entry(header::CONTENT_SECURITY_POLICY)
            .or_insert_with(|| self.csp.clone());
        out.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        out.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        out.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        );
        out.insert(
            HeaderName::from_static("permissions-policy"),
            HeaderValue::from_static(
                "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
            ),
        );
        if over_tls {
            out.insert(
                header::STRICT_TRANSPORT_SECURITY,
                HeaderValue::from_static("max-age=63072000; includeSubDomains"),
            );
        }
        response
    }
}

fn as_json_error(response: Response) -> Response {
    let replacement = match response.status() {
        StatusCode::METHOD_NOT_ALLOWED => AppError::MethodNotAllowed,
        StatusCode::REQUEST_TIMEOUT => AppError::Timeout,
        StatusCode::PAYLOAD_TOO_LARGE => AppError::PayloadTooLarge,
        _ => return response,
    };
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if is_json {
        return response;
    }
    let allow = response.headers().get(header::ALLOW).cloned();
    let mut json = replacement.into_response();
    if let Some(allow) = allow {
        json.headers_mut().insert(header::ALLOW, allow);
    }
    json
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_inline_scripts_are_hashed() {
        let html = r#"<script>a()</script><script type="module" src="/x.js"></script><script>b()</script>"#;
        assert_eq!(inline_scripts(html).collect::<Vec<_>>(), vec!["a()", "b()"]);
    }

    #[test]
    fn the_hash_is_the_csp_sha256_of_the_script_text() {
        // echo -n 'a()' | openssl dgst -sha256 -binary | base64
        assert_eq!(
            sha256_base64("a()"),
            "qVpDBgj7bpq5hMAcGp3AOc79J3Y1Z4HvySTwKrWDoy4="
        );
    }
}
