//! Per-IP token buckets for the sign-in and wisdom routes: a burst, then a steady rate, then 429.

use std::{
    collections::HashMap,
    net::{IpAddr, SocketAddr},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{
    extract::{ConnectInfo, Request, State},
    middleware::Next,
    response::{IntoResponse, Response},
};

use crate::error::AppError;

/// Buckets idle this long are forgotten when the map grows.
const IDLE_FORGET: Duration = Duration::from_secs(600);
const PRUNE_AT: usize = 10_000;

#[derive(Debug)]
struct Bucket {
    tokens: f64,
    refilled: Instant,
}

/// A token bucket per client address.
#[derive(Debug)]
pub struct RateLimiter {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl RateLimiter {
    /// `per_minute` requests per minute, in bursts of up to a quarter of that (at least 1).
    pub fn per_minute(per_minute: u32) -> Self {
        let per_minute = f64::from(per_minute.max(1));
        Self {
            per_second: per_minute / 60.0,
            burst: (per_minute / 4.0).max(1.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `ip`, or says how long until one is there.
    pub fn check(&self, ip: IpAddr, now: Instant) -> Result<(), Duration> {
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(());
        };
        if buckets.len() > PRUNE_AT {
            buckets.retain(|_, bucket| now.duration_since(bucket.refilled) < IDLE_FORGET);
        }
        let bucket = buckets.entry(ip).or_insert(Bucket {
            tokens: self.burst,
            refilled: now,
        });
        let elapsed = now.duration_since(bucket.refilled).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * self.per_second).min(self.burst);
        bucket.refilled = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64(
                (1.0 - bucket.tokens) / self.per_second,
            ))
        }
    }
}

/// Middleware: refuse with 429 JSON and `Retry-After` once the client's bucket is empty.
pub async fn limit_by_ip(
    State(limiter): State<Arc<RateLimiter>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    match limiter.check(peer.ip(), Instant::now()) {
        Ok(()) => next.run(request).await,
        Err(retry_after) => AppError::RateLimited { retry_after }.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_the_next_request_waits_for_a_refill() {
        let limiter = RateLimiter::per_minute(60);
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
        let limiter = RateLimiter::per_minute(4);
        let start = Instant::now();
        assert!(limiter.check(IpAddr::from([10, 0, 0, 1]), start).is_ok());
        assert!(limiter.check(IpAddr::from([10, 0, 0, 1]), start).is_err());
        assert!(limiter.check(IpAddr::from([10, 0, 0, 2]), start).is_ok());
    }
}
