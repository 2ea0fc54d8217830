//! The answers hyper writes itself, before any service runs: a request it cannot parse (bytes that
//! are not allowed in the path, a duplicate `Content-Length`, an unknown version) or whose head
//! overflows the connection buffer. hyper sends those as a bare status with an empty body; here
//! they get the API's JSON error shape and the security headers, like every other answer.
//!
//! hyper 1 has no hook for these answers, so the accept loop (`serve.rs`) recognises hyper's own
//! error head on the socket when no answer of the service is due, and writes this one instead.

use std::collections::HashMap;

use super::hardening::SecurityHeaders;
use crate::error::ErrorBody;
use axum::{
    body::Bytes,
    http::{header, HeaderValue, StatusCode},
    response::Response,
};

/// The statuses hyper answers on its own, with what a person reads and the code a program reads.
const OWN: [(u16, &str, &str); 6] = [
    (400, "The request could not be read.", "bad_request"),
    (
        431,
        "The request's headers are too large.",
        "request_header_fields_too_large",
    ),
    (414, "The address is too long.", "uri_too_long"),
    (413, crate::error::BODY_TOO_LARGE, "payload_too_large"),
    (
        501,
        "This server does not handle that request.",
        "not_implemented",
    ),
    (
        505,
        "This HTTP version is not supported.",
        "http_version_not_supported",
    ),
];

/// Ready-made answers for hyper's own error statuses.
#[derive(Debug, Default)]
pub struct OwnErrors {
    by_status: HashMap<u16, Bytes>,
}

impl OwnErrors {
    /// The answers, with `security`'s headers (no HSTS: nothing is known of the client yet).
    pub fn new(security: &SecurityHeaders) -> Self {
        let by_status = OWN
            .iter()
            .filter_map(|&(code, message, name)| {
                let status = StatusCode::from_u16(code).ok()?;
                let body = serde_json::to_string(&ErrorBody {
                    code: name,
                    error: message.to_owned(),
                })
                .ok()?;
                let mut response = Response::new(axum::body::Body::empty());
                *response.status_mut() = status;
                response.headers_mut().insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                );
                let response = security.finish(response, false);
                let mut head = format!(
                    "HTTP/1.1 {} {}\r\n",
                    status.as_u16(),
                    status.canonical_reason().unwrap_or("Error")
                )
                .into_bytes();
                for (name, value) in response.headers() {
                    head.extend_from_slice(name.as_str().as_bytes());
                    head.extend_from_slice(b": ");
                    head.extend_from_slice(value.as_bytes());
                    head.extend_from_slice(b"\r\n");
                }
                head.extend_from_slice(
                    format!(
                        "content-length: {}\r\nconnection: close\r\n\r\n",
                        body.len()
                    )
                    .as_bytes(),
                );
                head.extend_from_slice(body.as_bytes());
                Some((code, Bytes::from(head)))
            })
            .collect();
        Self { by_status }
    }

    /// The answer to write instead of `written`, when `written` is hyper's own bare error head
    /// (`HTTP/1.x 4xx|5xx`, `content-length: 0`, nothing after the head).
    pub fn replacement(&self, written: &[u8]) -> Option<Bytes> {
        if written.len() > 512 || !written.ends_with(b"\r\n\r\n") {
            return None;
        }
        let text = std::str::from_utf8(written).ok()?;
        let rest = text
            .strip_prefix("HTTP/1.1 ")
            .or_else(|| text.strip_prefix("HTTP/1.0 "))?;
        let code: u16 = rest.get(..3)?.parse().ok()?;
        if !text
            .to_ascii_lowercase()
            .contains("\r\ncontent-length: 0\r\n")
        {
            return None;
        }
        self.by_status.get(&code).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors() -> OwnErrors {
        OwnErrors::new(&SecurityHeaders::for_app(
            std::path::Path::new("/nonexistent"),
            None,
        ))
    }

    #[test]
    fn hypers_bare_error_heads_are_replaced_by_json_with_the_security_headers() {
        let errors = errors();
        let bare = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: Wed, 25 Nov 2026 20:00:00 GMT\r\n\r\n";
        let answer = errors.replacement(bare).expect("replaced");
        let answer = String::from_utf8(answer.to_vec()).expect("text");
        assert!(
            answer.starts_with("HTTP/1.1 400 Bad Request\r\n"),
            "{answer}"
        );
        assert!(
            answer.contains("content-type: application/json\r\n"),
            "{answer}"
        );
        assert!(
            answer.contains("x-content-type-options: nosniff\r\n"),
            "{answer}"
        );
        assert!(answer.contains("content-security-policy: "), "{answer}");
        assert!(
            answer.ends_with(r#"{"code":"bad_request","error":"The request could not be read."}"#)
                || answer.ends_with(
                    r#"{"error":"The request could not be read.","code":"bad_request"}"#
                ),
            "{answer}"
        );
        let big = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n";
        assert!(errors.replacement(big).is_some());
    }

    #[test]
    fn anything_else_is_left_alone() {
        let errors = errors();
        for written in [
            &b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"[..],
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{}",
            b"HTTP/1.1 100 Continue\r\n\r\n",
            b"some body text",
        ] {
            assert!(errors.replacement(written).is_none(), "{written:?}");
        }
    }
}
