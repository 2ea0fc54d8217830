//! `GET /metrics`: Prometheus text exposition, for the machine itself or a holder of `METRICS_TOKEN`.

use std::sync::Arc;

use axum::{
    extract::State,
    http::{header, HeaderMap},
    response::IntoResponse,
    routing::get,
    Router,
};

use tower_http::compression::CompressionLayer;

use crate::{
    config::Config, db::Database, error::AppError, forwarded::ClientInfo, request_metrics::Metrics,
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/metrics", get(get_metrics))
        .layer(CompressionLayer::new())
}

#[tracing::instrument(skip_all)]
async fn get_metrics(
    State(config): State<Arc<Config>>,
    State(db): State<Database>,
    State(metrics): State<Arc<Metrics>>,
    client: ClientInfo,
    headers: HeaderMap,
) -> Result<impl IntoResponse, AppError> {
    if !may_read_metrics(&client, &headers, config.network.metrics_token.as_deref()) {
        // The same answer as for an address that does not exist: nothing to learn from outside.
        return Err(AppError::NotFound);
    }
    let pool = db.pool();
    let text = metrics.render(pool.size(), pool.num_idle());
    Ok((
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    ))
}

/// Loopback callers (the real TCP peer, and the client a trusted proxy names, both loopback: a
/// proxy on this machine forwarding someone from outside does not count), or `Bearer <METRICS_TOKEN>`.
fn may_read_metrics(client: &ClientInfo, headers: &HeaderMap, token: Option<&str>) -> bool {
    if client.peer.is_loopback() && client.ip.is_loopback() {
        return true;
    }
    let (Some(expected), Some(sent)) = (
        token,
        headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer ")),
    ) else {
        return false;
    };
    // Compared as digests, so the time taken says nothing about how much of the token matched.
    let digest = |text: &str| ring::digest::digest(&ring::digest::SHA256, text.trim().as_bytes());
    digest(sent).as_ref() == digest(expected).as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;
    use std::net::IpAddr;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("address")
    }

    #[test]
    fn only_loopback_peers_or_the_token_holder_read_metrics() {
        let none = HeaderMap::new();
        let local = ClientInfo::direct(ip("127.0.0.1"));
        assert!(may_read_metrics(&local, &none, None));
        assert!(may_read_metrics(
            &ClientInfo::direct(ip("::1")),
            &none,
            None
        ));

        let outside = ClientInfo::direct(ip("203.0.113.5"));
        assert!(!may_read_metrics(&outside, &none, None));
        assert!(!may_read_metrics(&outside, &none, Some("s3cret")));
        let mut bearer = HeaderMap::new();
        bearer.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer s3cret"),
        );
        assert!(may_read_metrics(&outside, &bearer, Some("s3cret")));
        assert!(!may_read_metrics(&outside, &bearer, Some("other")));
        assert!(!may_read_metrics(&outside, &bearer, None));

        // A proxy on this machine forwarding an outside client: not loopback.
        let forwarded = ClientInfo {
            ip: ip("203.0.113.5"),
            ..ClientInfo::direct(ip("127.0.0.1"))
        };
        assert!(!may_read_metrics(&forwarded, &none, None));
    }
}
