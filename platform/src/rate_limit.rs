//! Per-client token buckets for the sign-in and wisdom routes: a burst, then a steady rate, then 429.
//!
//! The buckets live in a bounded LRU map (`RATE_LIMIT_MAX_CLIENTS`): each request is one hash
//! lookup, and when the map is full the client seen least recently is forgotten (it starts again
//! with a full burst, which needs that many other addresses to have come by since). IPv6 clients
//! share a bucket per /64, the smallest network a host is usually given.

use std::{
    net::{IpAddr, Ipv4Addr, SocketAddr},
    num::NonZeroUsize,
    sync::{Arc, Mutex, PoisonError},
    time::{Duration, Instant},
};

use axum::{
    extract::{ConnectInfo, Request, State},
    middleware::Next,
    response::{IntoResponse, Response},
};
use lru::LruCache;

use crate::{error::AppError, forwarded::ClientInfo};

/// What a bucket is kept under: an IPv4 address, or an IPv6 address's /64 network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClientKey {
    V4(u32),
    V6Net(u64),
}

impl From<IpAddr> for ClientKey {
    fn from(ip: IpAddr) -> Self {
        match ip.to_canonical() {
            IpAddr::V4(v4) => Self::V4(u32::from(v4)),
            IpAddr::V6(v6) => Self::V6Net((u128::from(v6) >> 64) as u64),
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    /// Microseconds after the limiter's epoch.
    refilled_us: u64,
}

/// A token bucket per client, at most `capacity` of them.
#[derive(Debug)]
pub struct RateLimiter {
    per_second: f64,
    burst: f64,
    epoch: Instant,
    buckets: Mutex<LruCache<ClientKey, Bucket>>,
}

impl RateLimiter {
    /// `per_minute` requests per minute, in bursts of up to a quarter of that (at least 1), for at
    /// most `capacity` clients at a time.
    pub fn per_minute(per_minute: u32, capacity: usize) -> Self {
        let per_minute = f64::from(per_minute.max(1));
        Self {
            per_second: per_minute / 60.0,
            burst: (per_minute / 4.0).max(1.0),
            epoch: Instant::now(),
            buckets: Mutex::new(LruCache::new(
                NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN),
            )),
        }
    }

    /// Takes one token for `ip`'s bucket, or says how long until one is there.
    pub fn check(&self, ip: IpAddr, now: Instant) -> Result<(), Duration> {
        let at_us = u64::try_from(now.saturating_duration_since(self.epoch).as_micros())
            .unwrap_or(u64::MAX);
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        let bucket = buckets.get_or_insert_mut(ClientKey::from(ip), || Bucket {
            tokens: self.burst,
            refilled_us: at_us,
        });
        let elapsed = at_us.saturating_sub(bucket.refilled_us) as f64 / 1_000_000.0;
        bucket.tokens = (bucket.tokens + elapsed * self.per_second).min(self.burst);
        bucket.refilled_us = bucket.refilled_us.max(at_us);
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64(
                (1.0 - bucket.tokens) / self.per_second,
            ))
        }
    }

    /// How many clients are remembered (never more than the capacity).
    pub fn len(&self) -> usize {
        self.buckets
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The client a request counts against: the address the frontline derived (behind a trusted
/// proxy, the forwarded client), else the TCP peer.
fn client_ip(request: &Request) -> IpAddr {
    request
        .extensions()
        .get::<ClientInfo>()
        .map(|client| client.ip)
        .or_else(|| {
            request
                .extensions()
                .get::<ConnectInfo<SocketAddr>>()
                .map(|peer| peer.0.ip())
        })
        .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
}

/// Middleware: refuse with 429 JSON and `Retry-After` once the client's bucket is empty.
pub async fn limit_by_ip(
    State(limiter): State<Arc<RateLimiter>>,
    request: Request,
    next: Next,
) -> Response {
    match limiter.check(client_ip(&request), Instant::now()) {
        Ok(()) => next.run(request).await,
        Err(retry_after) => AppError::RateLimited { retry_after }.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_the_next_request_waits_for_a_refill() {
        let limiter = RateLimiter::per_minute(60, 100);
        let ip = IpAddr::from([10, 0, 0, 1]);
        let start = Instant::now();
        for _ in 0..15 {
            assert!(limiter.check(ip, start).is_ok());
        }
        let wait = limiter.check(ip, start).expect_err("bucket empty");
        assert!(wait <= Duration::from_secs(1) && wait > Duration::ZERO);
        assert!(limiter.check(ip, start + Duration::from_secs(1)).is_ok());
    }

    #[test]
    fn each_address_has_its_own_bucket() {
        let limiter = RateLimiter::per_minute(4, 100);
        let start = Instant::now();
        assert!(limiter.check(IpAddr::from([10, 0, 0, 1]), start).is_ok());
        assert!(limiter.check(IpAddr::from([10, 0, 0, 1]), start).is_err());
        assert!(limiter.check(IpAddr::from([10, 0, 0, 2]), start).is_ok());
    }

    #[test]
    fn ipv6_clients_share_a_bucket_per_64_and_mapped_ipv4_is_ipv4() {
        let limiter = RateLimiter::per_minute(4, 100);
        let start = Instant::now();
        let ip = |text: &str| text.parse::<IpAddr>().expect("address");
        assert!(limiter.check(ip("2001:db8:1:2::1"), start).is_ok());
        // Another address in the same /64: the same, empty bucket.
        assert!(limiter
            .check(ip("2001:db8:1:2:ffff:ffff:ffff:ffff"), start)
            .is_err());
        assert!(limiter.check(ip("2001:db8:1:3::1"), start).is_ok());
        assert!(limiter.check(ip("192.0.2.1"), start).is_ok());
        assert!(limiter.check(ip("::ffff:192.0.2.1"), start).is_err());
    }

    #[test]
    fn memory_stays_bounded_however_many_addresses_come_by() {
        let limiter = RateLimiter::per_minute(4, 1_000);
        let start = Instant::now();
        for n in 0..100_000u32 {
            let _ = limiter.check(IpAddr::from(n.to_be_bytes()), start);
        }
        assert_eq!(limiter.len(), 1_000);
        // A client that is still active keeps its (empty) bucket through the churn.
        let busy = IpAddr::from([203, 0, 113, 7]);
        assert!(limiter.check(busy, start).is_ok());
        for n in 0..500u32 {
            let _ = limiter.check(IpAddr::from((n + 1_000_000).to_be_bytes()), start);
            let _ = limiter.check(busy, start);
        }
        assert!(limiter.check(busy, start).is_err());
    }
}
