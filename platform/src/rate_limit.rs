//! The one rate limiter of the server: a token bucket per key (a burst, then a steady rate, then
//! 429), for every keyed limit: per client address on the sign-in and Wisdom routes
//! ([`RateLimiter`], `RATE_LIMIT_PER_MINUTE`), per operator on the status page's writes, per user
//! and action on the account's export and deletion.
//!
//! The buckets live in a bounded LRU map: each take is one hash lookup, and when the map is full
//! the key seen least recently is forgotten (it starts again with a full burst, which needs that
//! many other keys to have come by since). Time is a parameter (unix milliseconds), so tests drive
//! it. IPv6 clients share a bucket per /64, the smallest network a host is usually given.

use std::{
    hash::Hash,
    net::{IpAddr, Ipv4Addr, SocketAddr},
    num::NonZeroUsize,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use axum::{
    extract::{ConnectInfo, Request, State},
    middleware::Next,
    response::{IntoResponse, Response},
};
use lru::LruCache;

use crate::{error::AppError, forwarded::ClientInfo, time::now_ms};

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
    /// Unix milliseconds of the last refill.
    refilled_ms: i64,
}

/// A token bucket per key, at most `capacity` keys remembered.
#[derive(Debug)]
pub struct KeyedLimiter<K: Hash + Eq> {
    per_ms: f64,
    burst: f64,
    buckets: Mutex<LruCache<K, Bucket>>,
}

/// The per-client limiter of the sign-in and Wisdom routes.
pub type RateLimiter = KeyedLimiter<ClientKey>;

impl<K: Hash + Eq> KeyedLimiter<K> {
    /// `per_minute` takes per minute, in bursts of up to `burst` (at least 1), for at most
    /// `capacity` keys at a time.
    pub fn new(per_minute: u32, burst: u32, capacity: usize) -> Self {
        Self {
            per_ms: f64::from(per_minute.max(1)) / 60_000.0,
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(LruCache::new(
                NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN),
            )),
        }
    }

    /// `per_minute` takes per minute in bursts of a quarter of that (the clients' limit).
    pub fn per_minute(per_minute: u32, capacity: usize) -> Self {
        Self::new(per_minute, per_minute / 4, capacity)
    }

    /// Takes one token from `key`'s bucket at `now_ms`, or says how long until one is there.
    pub fn take(&self, key: K, now_ms: i64) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        let bucket = buckets.get_or_insert_mut(key, || Bucket {
            tokens: self.burst,
            refilled_ms: now_ms,
        });
        let elapsed = now_ms.saturating_sub(bucket.refilled_ms).max(0) as f64;
        bucket.tokens = (bucket.tokens + elapsed * self.per_ms).min(self.burst);
        bucket.refilled_ms = bucket.refilled_ms.max(now_ms);
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            let wait_ms = ((1.0 - bucket.tokens) / self.per_ms).ceil();
            Err(Duration::from_millis(wait_ms as u64))
        }
    }

    /// [`Self::take`] as the API's refusal: 429 with `Retry-After`.
    pub fn take_or_refuse(&self, key: K, now_ms: i64) -> Result<(), AppError> {
        self.take(key, now_ms)
            .map_err(|retry_after| AppError::RateLimited { retry_after })
    }

    /// How many keys are remembered (never more than the capacity).
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

impl RateLimiter {
    /// Takes one token for `ip`'s bucket (its /64 for IPv6) at `now_ms`.
    pub fn check(&self, ip: IpAddr, now_ms: i64) -> Result<(), Duration> {
        self.take(ClientKey::from(ip), now_ms)
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
    match limiter.check(client_ip(&request), now_ms()) {
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
        let start = 1_000_000;
        for _ in 0..15 {
            assert!(limiter.check(ip, start).is_ok());
        }
        let wait = limiter.check(ip, start).expect_err("bucket empty");
        assert!(wait <= Duration::from_secs(1) && wait > Duration::ZERO);
        assert!(limiter.check(ip, start + 1_000).is_ok());
    }

    #[test]
    fn each_address_has_its_own_bucket() {
        let limiter = RateLimiter::per_minute(4, 100);
        let start = 1_000_000;
        assert!(limiter.check(IpAddr::from([10, 0, 0, 1]), start).is_ok());
        assert!(limiter.check(IpAddr::from([10, 0, 0, 1]), start).is_err());
        assert!(limiter.check(IpAddr::from([10, 0, 0, 2]), start).is_ok());
    }

    #[test]
    fn ipv6_clients_share_a_bucket_per_64_and_mapped_ipv4_is_ipv4() {
        let limiter = RateLimiter::per_minute(4, 100);
        let start = 1_000_000;
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
    fn a_key_s_wait_is_its_time_to_the_next_token() {
        // The account's actions: one per 10 s per user and action.
        let limiter = KeyedLimiter::<(u8, &str)>::new(6, 1, 10);
        assert!(limiter.take((0, "a"), 0).is_ok());
        assert_eq!(
            limiter.take((0, "a"), 4_000),
            Err(Duration::from_millis(6_000))
        );
        assert!(limiter.take((1, "a"), 4_000).is_ok(), "another action");
        assert!(limiter.take((0, "b"), 4_000).is_ok(), "another user");
        assert!(limiter.take((0, "a"), 10_000).is_ok());
        // A clock that steps back refills nothing and takes nothing twice.
        assert!(limiter.take((0, "a"), 5_000).is_err());
    }

    #[test]
    fn memory_stays_bounded_however_many_addresses_come_by() {
        let limiter = RateLimiter::per_minute(4, 1_000);
        let start = 1_000_000;
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
