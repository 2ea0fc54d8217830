//! Request counts and latencies per route, and the database pool's state, in Prometheus text format.

use std::{
    collections::HashMap,
    convert::Infallible,
    fmt::Write,
    future::Future,
    pin::Pin,
    sync::{
        atomic::{AtomicU64, Ordering::Relaxed},
        Arc, RwLock,
    },
    task::{Context, Poll},
    time::Instant,
};

use axum::{
    extract::{MatchedPath, Request},
    http::Method,
    response::Response,
};
use tower::{Layer, Service};

/// Upper bounds (seconds) of the latency histogram buckets.
const BUCKETS: [f64; 11] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0,
];
/// Status codes 100-599 are counted in a flat array indexed by `status - 100`.
const STATUS_SLOTS: usize = 500;

/// Counters of one (method, route) pair. Atomics: the hot path takes no lock once a pair exists.
#[derive(Debug)]
struct RouteStats {
    by_status: Vec<AtomicU64>,
    /// Requests per bucket: the ones no faster bucket held (the exposition makes them cumulative).
    buckets: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

impl Default for RouteStats {
    fn default() -> Self {
        Self {
            by_status: (0..STATUS_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            buckets: Default::default(),
            count: AtomicU64::new(0),
            sum_micros: AtomicU64::new(0),
        }
    }
}

/// The stats of each method seen on one route.
type MethodStats = Vec<(String, Arc<RouteStats>)>;

/// The `method` label: the standard methods by name, any other token a client invents as `other`.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::OPTIONS => "OPTIONS",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "other",
    }
}

/// Counters for every (method, route) pair seen. Both labels come from fixed sets, so the label
/// set stays small whatever clients send: methods from [`method_label`], routes from the matched
/// route templates (`unmatched` for anything no route claims).
#[derive(Debug, Default)]
pub struct Metrics {
    /// route -> [(method, stats)]
    routes: RwLock<HashMap<String, MethodStats>>,
}

impl Metrics {
    fn stats_for(&self, method: &str, route: &str) -> Option<Arc<RouteStats>> {
        if let Some(stats) = self.routes.read().ok()?.get(route).and_then(|methods| {
            methods
                .iter()
                .find(|(m, _)| m == method)
                .map(|(_, stats)| stats.clone())
        }) {
            return Some(stats);
        }
        let mut routes = self.routes.write().ok()?;
        let methods = routes.entry(route.to_owned()).or_default();
        if let Some((_, stats)) = methods.iter().find(|(m, _)| m == method) {
            return Some(stats.clone());
        }
        let stats = Arc::new(RouteStats::default());
        methods.push((method.to_owned(), stats.clone()));
        Some(stats)
    }

    fn record(&self, method: &str, route: &str, status: u16, seconds: f64) {
        let Some(stats) = self.stats_for(method, route) else {
            return;
        };
        if let Some(slot) = usize::from(status)
            .checked_sub(100)
            .and_then(|i| stats.by_status.get(i))
        {
            slot.fetch_add(1, Relaxed);
        }
        // One bucket per request (the first whose bound holds it); the exposition sums them up.
        // Incrementing every bucket above it cost a request up to eleven shared atomic writes.
        if let Some(bucket) = BUCKETS
            .iter()
            .position(|bound| seconds <= *bound)
            .and_then(|i| stats.buckets.get(i))
        {
            bucket.fetch_add(1, Relaxed);
        }
        stats.count.fetch_add(1, Relaxed);
        stats
            .sum_micros
            .fetch_add((seconds * 1_000_000.0) as u64, Relaxed);
    }

    /// Every (method, route, stats), sorted for a stable output.
    fn snapshot(&self) -> Vec<(String, String, Arc<RouteStats>)> {
        let routes = match self.routes.read() {
            Ok(routes) => routes,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut all: Vec<_> = routes
            .iter()
            .flat_map(|(route, methods)| {
                methods
                    .iter()
                    .map(|(method, stats)| (method.clone(), route.clone(), stats.clone()))
            })
            .collect();
        all.sort_by(|a, b| (&a.1, &a.0).cmp(&(&b.1, &b.0)));
        all
    }

    /// The Prometheus text exposition of everything recorded, plus the pool gauges given.
    pub fn render(&self, pool_size: u32, pool_idle: usize) -> String {
        let mut out = String::new();
        out.push_str("# HELP mg_http_requests_total HTTP requests by method, route and status.\n");
        out.push_str("# TYPE mg_http_requests_total counter\n");
        let routes = self.snapshot();
        for (method, route, stats) in &routes {
            for (index, count) in stats.by_status.iter().enumerate() {
                let count = count.load(Relaxed);
                if count == 0 {
                    continue;
                }
                let status = index + 100;
                let _ = writeln!(
                    out,
                    "mg_http_requests_total{{method=\"{method}\",route=\"{route}\",status=\"{status}\"}} {count}"
                );
            }
        }
        out.push_str(
            "# HELP mg_http_request_duration_seconds HTTP request latency by method and route.\n",
        );
        out.push_str("# TYPE mg_http_request_duration_seconds histogram\n");
        for (method, route, stats) in &routes {
            let count = stats.count.load(Relaxed);
            let labels = format!("method=\"{method}\",route=\"{route}\"");
            let mut cumulative = 0;
            for (bound, bucket) in BUCKETS.iter().zip(&stats.buckets) {
                cumulative += bucket.load(Relaxed);
                let _ = writeln!(
                    out,
                    "mg_http_request_duration_seconds_bucket{{{labels},le=\"{bound}\"}} {cumulative}"
                );
            }
            let _ = writeln!(
                out,
                "mg_http_request_duration_seconds_bucket{{{labels},le=\"+Inf\"}} {count}"
            );
            let _ = writeln!(
                out,
                "mg_http_request_duration_seconds_sum{{{labels}}} {}",
                stats.sum_micros.load(Relaxed) as f64 / 1_000_000.0
            );
            let _ = writeln!(
                out,
                "mg_http_request_duration_seconds_count{{{labels}}} {count}"
            );
        }
        let in_use = (pool_size as usize).saturating_sub(pool_idle);
        out.push_str("# HELP mg_db_pool_connections Database pool connections by state.\n");
        out.push_str("# TYPE mg_db_pool_connections gauge\n");
        let _ = writeln!(out, "mg_db_pool_connections{{state=\"idle\"}} {pool_idle}");
        let _ = writeln!(out, "mg_db_pool_connections{{state=\"in_use\"}} {in_use}");
        out
    }
}

/// Layer: times each request and records it under its matched route. Hand-written rather than
/// `from_fn` so a request pays for one small future, not a clone of the whole application state.
#[derive(Debug, Clone)]
pub struct TrackLayer {
    metrics: Arc<Metrics>,
}

impl TrackLayer {
    pub fn new(metrics: Arc<Metrics>) -> Self {
        Self { metrics }
    }
}

impl<S> Layer<S> for TrackLayer {
    type Service = Track<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Track {
            inner,
            metrics: self.metrics.clone(),
        }
    }
}

/// The service [`TrackLayer`] makes.
#[derive(Debug, Clone)]
pub struct Track<S> {
    inner: S,
    metrics: Arc<Metrics>,
}

impl<S> Service<Request> for Track<S>
where
    S: Service<Request, Response = Response, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let started = Instant::now();
        let method = method_label(request.method());
        let route = request.extensions().get::<MatchedPath>().cloned();
        let response = self.inner.call(request);
        let metrics = self.metrics.clone();
        Box::pin(async move {
            let response = response.await?;
            metrics.record(
                method,
                route.as_ref().map_or("unmatched", MatchedPath::as_str),
                response.status().as_u16(),
                started.elapsed().as_secs_f64(),
            );
            Ok(response)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_request_shows_in_the_counts_and_the_right_buckets() {
        let metrics = Metrics::default();
        metrics.record("GET", "/health", 200, 0.003);
        let text = metrics.render(4, 3);
        assert!(text
            .contains("mg_http_requests_total{method=\"GET\",route=\"/health\",status=\"200\"} 1"));
        assert!(text.contains("route=\"/health\",le=\"0.0025\"} 0"));
        assert!(text.contains("route=\"/health\",le=\"0.005\"} 1"));
        assert!(text.contains("mg_db_pool_connections{state=\"in_use\"} 1"));
        // The buckets are cumulative: a slower request and one beyond every bound.
        metrics.record("GET", "/health", 200, 0.3);
        metrics.record("GET", "/health", 200, 9.0);
        let text = metrics.render(4, 3);
        for (bound, count) in [
            ("0.0025", 0),
            ("0.005", 1),
            ("0.25", 1),
            ("0.5", 2),
            ("5", 2),
        ] {
            let line = format!("route=\"/health\",le=\"{bound}\"}} {count}\n");
            assert!(text.contains(&line), "{line} in {text}");
        }
        assert!(
            text.contains("route=\"/health\",le=\"+Inf\"} 3\n"),
            "{text}"
        );
    }

    #[test]
    fn invented_methods_are_labelled_other() {
        assert_eq!(method_label(&Method::PATCH), "PATCH");
        let invented = Method::from_bytes(b"X1F2E").expect("a token");
        assert_eq!(method_label(&invented), "other");
    }
}
