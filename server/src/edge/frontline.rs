//! The outermost layer of every request: who the client is (behind `TRUSTED_PROXIES`), request id,
//! request span, CORS, the declared-body cap, security headers and the JSON error shape, in one
//! service.
//!
//! These were five generic layers (tower-http's request-id pair and trace layer, and two
//! `from_fn` middlewares); each cloned and boxed per request, and together they cost `/health`
//! most of its time (`benches/benches/server_stack.rs`, `benches/load.sh`). One service, wrapped
//! around the whole router instead of layered onto every route, does the same work with one
//! allocation for its future.

use std::{
    convert::Infallible,
    future::Future,
    net::{IpAddr, Ipv4Addr, SocketAddr},
    pin::Pin,
    sync::{
        atomic::{AtomicU64, Ordering::Relaxed},
        Arc,
    },
    task::{Context, Poll},
    time::{Duration, Instant},
};

use axum::{
    body::{Body, Bytes},
    extract::{ConnectInfo, Request},
    http::{HeaderName, HeaderValue},
    response::{IntoResponse, Response},
};
use tower::{Layer, Service};
use tracing::Instrument;

use super::{
    cors::Cors,
    hardening::{declares_too_large_body, SecurityHeaders},
};
use crate::{error::AppError, forwarded::TrustedProxies};

/// The header carrying a request's id, taken from the client (or a proxy) when it sends a sane
/// one, generated otherwise, and echoed on the response.
pub static X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
/// A client-sent id longer than this is replaced rather than logged (a UUID is 36, nginx's
/// `$request_id` 32).
const MAX_CLIENT_ID_BYTES: usize = 64;

/// Request ids unique across restarts and instances: a random per-process prefix and a counter.
/// (A UUID per request read the OS random source every time, for no gain in uniqueness.)
#[derive(Debug)]
struct RequestIds {
    prefix: u64,
    next: AtomicU64,
}

impl RequestIds {
    fn new() -> Self {
        // Random per process, so two instances never share ids.
        let prefix = u64::from_le_bytes(mg_platform::random::random_bytes::<8>());
        Self {
            prefix,
            next: AtomicU64::new(0),
        }
    }

    /// 32 lower-case hex digits.
    fn generate(&self) -> HeaderValue {
        let count = self.next.fetch_add(1, Relaxed);
        let mut text = [0u8; 32];
        crate::hex::encode_into(&self.prefix.to_be_bytes(), &mut text[..16]);
        crate::hex::encode_into(&count.to_be_bytes(), &mut text[16..]);
        HeaderValue::from_bytes(&text).unwrap_or_else(|_| HeaderValue::from_static("-"))
    }
}

/// An id a client sent that is safe to log and echo: short, and only letters, digits, `-`, `_`,
/// `.` and `:` (what UUIDs, trace ids and proxies' ids are made of). Anything else, markup and
/// quotes included, is replaced by a generated id.
fn acceptable_client_id(value: &HeaderValue) -> bool {
    let bytes = value.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= MAX_CLIENT_ID_BYTES
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

/// What answers a request: the frontline itself, or the service inside it.
enum Answer<F> {
    Early(Response),
    Inner(F),
}

#[derive(Debug)]
struct Shared {
    /// How long a request may take before it is answered 408.
    time_limit: Duration,
    security: SecurityHeaders,
    cors: Cors,
    ids: RequestIds,
    trusted_proxies: TrustedProxies,
    own_refusal: Option<OwnRefusal>,
}

/// The edge's early refusals (a declared body over the limit, a path with no normal form) for
/// paths whose service answers errors in a shape of its own (the identity emulator speaks its
/// provider's); `None` for the server's JSON. Registered at startup, so the edge knows no feature
/// by name.
pub type OwnRefusal = fn(path: &str, refusal: &AppError) -> Option<Response>;

/// Wraps a service (the router) in the frontline.
#[derive(Debug, Clone)]
pub struct FrontlineLayer {
    shared: Arc<Shared>,
}

impl FrontlineLayer {
    pub fn new(
        security: SecurityHeaders,
        cors: Cors,
        trusted_proxies: TrustedProxies,
        time_limit: Duration,
    ) -> Self {
        Self {
            shared: Arc::new(Shared {
                time_limit,
                security,
                cors,
                ids: RequestIds::new(),
                trusted_proxies,
                own_refusal: None,
            }),
        }
    }

    /// Lets `answer` word the edge's early refusals on the paths it claims.
    pub fn with_own_refusal(mut self, answer: OwnRefusal) -> Self {
        if let Some(shared) = Arc::get_mut(&mut self.shared) {
            shared.own_refusal = Some(answer);
        }
        self
    }
}

impl<S> Layer<S> for FrontlineLayer {
    type Service = Frontline<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Frontline {
            inner,
            shared: self.shared.clone(),
        }
    }
}

/// The service [`FrontlineLayer`] makes.
#[derive(Debug, Clone)]
pub struct Frontline<S> {
    inner: S,
    shared: Arc<Shared>,
}

impl<S, B> Service<Request> for Frontline<S>
where
    S: Service<Request, Response = Response<B>, Error = Infallible>,
    S::Future: Send + 'static,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        let started = Instant::now();
        let id = match request.headers().get(&X_REQUEST_ID) {
            Some(sent) if acceptable_client_id(sent) => sent.clone(),
            _ => {
                let id = self.shared.ids.generate();
                request
                    .headers_mut()
                    .insert(X_REQUEST_ID.clone(), id.clone());
                id
            }
        };
        // Every log line of the request carries its id. When `info` is filtered out the span is
        // disabled and costs next to nothing.
        let span = tracing::info_span!(
            "request",
            method = %request.method(),
            uri = %request.uri().path(),
            request_id = %String::from_utf8_lossy(id.as_bytes()),
        );
        // The TCP peer comes from the accept loop; forwarding headers count only from trusted
        // proxies. The rate limiter, HSTS and the identity emulator read this one answer.
        let peer = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |peer| peer.0.ip());
        let client = self
            .shared
            .trusted_proxies
            .client_info(peer, request.headers());
        let over_tls = client.over_tls;
        request.extensions_mut().insert(client);
        let origin = self.shared.cors.allowed_origin(request.headers());
        let shared = self.shared.clone();

        // One spelling per path before any rule reads it (`edge::path`).
        let bad_path = match super::path::normalized(request.uri().path()) {
            Ok(None) => false,
            Ok(Some(normal)) => {
                rewrite_path(&mut request, &normal);
                false
            }
            Err(_) => true,
        };

        // A preflight is answered here, with its own CORS headers; a declared body over the
        // limit is refused before any handler (or body read) runs.
        let refuse = |refusal: AppError| {
            self.shared
                .own_refusal
                .and_then(|answer| answer(request.uri().path(), &refusal))
                .unwrap_or_else(|| refusal.into_response())
        };
        let (answer, cors_applies) = if bad_path {
            let refusal = refuse(AppError::BadRequest(
                "The address is not a valid path.".into(),
            ));
            (Answer::Early(refusal), true)
        } else if let Some(preflight) = self.shared.cors.preflight(&request, origin.as_ref()) {
            (Answer::Early(preflight), false)
        } else if declares_too_large_body(request.headers()) {
            (Answer::Early(refuse(AppError::PayloadTooLarge)), true)
        } else {
            let _entered = span.enter();
            (Answer::Inner(self.inner.call(request)), true)
        };

        Box::pin(
            async move {
                let mut response = match answer {
                    Answer::Early(response) => response,
                    // The time limit's timer is armed only if the answer is not ready at
                    // once (`timeout` polls the answer first): most answers never touch it.
                    Answer::Inner(future) => {
                        match tokio::time::timeout(shared.time_limit, future).await {
                            Ok(Ok(response)) => response.map(Body::new),
                            Ok(Err(never)) => match never {},
                            Err(_) => AppError::Timeout.into_response(),
                        }
                    }
                };
                if cors_applies {
                    Cors::decorate(origin, &mut response);
                }
                let mut response = shared.security.finish(response, over_tls);
                response.headers_mut().insert(X_REQUEST_ID.clone(), id);
                let status = response.status();
                if status.is_server_error() {
                    tracing::error!(
                        status = status.as_u16(),
                        latency_ms = started.elapsed().as_secs_f64() * 1000.0,
                        "response failed"
                    );
                } else {
                    tracing::debug!(
                        status = status.as_u16(),
                        latency_ms = started.elapsed().as_secs_f64() * 1000.0,
                        "response"
                    );
                }
                Ok(response)
            }
            .instrument(span),
        )
    }
}

/// Puts `path` in place of the request's path, keeping its query.
fn rewrite_path(request: &mut Request, path: &str) {
    let path_and_query = match request.uri().query() {
        Some(query) => format!("{path}?{query}"),
        None => path.to_owned(),
    };
    let mut parts = request.uri().clone().into_parts();
    let Ok(path_and_query) = path_and_query.parse() else {
        return;
    };
    parts.path_and_query = Some(path_and_query);
    if let Ok(uri) = axum::http::Uri::from_parts(parts) {
        *request.uri_mut() = uri;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_ids_are_32_hex_digits_and_never_repeat() {
        let ids = RequestIds::new();
        let first = ids.generate();
        let second = ids.generate();
        assert_eq!(first.len(), 32);
        assert!(first.as_bytes().iter().all(u8::is_ascii_hexdigit));
        assert_ne!(first, second);
        assert_eq!(first.as_bytes()[..16], second.as_bytes()[..16]);
    }

    #[test]
    fn only_short_visible_client_ids_are_kept() {
        assert!(acceptable_client_id(&HeaderValue::from_static("abc-123")));
        assert!(!acceptable_client_id(&HeaderValue::from_static("")));
        assert!(!acceptable_client_id(&HeaderValue::from_static("a b")));
        assert!(acceptable_client_id(&HeaderValue::from_static(
            "0f8fad5b-d9cb-469f-a165-70867728950e"
        )));
        for sent in ["<script>", "a\"b", "x'y", "a;b", "%0d%0a", "{}"] {
            assert!(
                !acceptable_client_id(&HeaderValue::from_static(sent)),
                "{sent}"
            );
        }
        let long = "x".repeat(MAX_CLIENT_ID_BYTES + 1);
        assert!(!acceptable_client_id(
            &HeaderValue::from_str(&long).expect("ascii")
        ));
    }
}
