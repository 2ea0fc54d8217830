//! The checks themselves: the API (in-process), the database (a timed round trip) and the queue (HTTP).

use std::time::{Duration, Instant};

use crate::store::checks::RawCheck;
use mg_domain::status::COMPONENTS;
use mg_platform::db::{Database, PING_LIMIT as DB_PING_LIMIT};

/// How long the API check may take before the runtime counts as stuck.
pub const API_LIMIT: Duration = Duration::from_secs(1);
/// How long the queue may take to answer.
pub const QUEUE_LIMIT: Duration = Duration::from_secs(5);
/// Longest error text stored with a check (the rest is cut at a character boundary).
pub const MAX_ERROR_LEN: usize = 200;

/// The outcome of one check of one component by this instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckResult {
    pub component: &'static str,
    pub instance_id: String,
    /// Unix milliseconds.
    pub checked_at: i64,
    pub healthy: bool,
    pub latency_us: i64,
    pub error: Option<String>,
}

impl From<&CheckResult> for RawCheck {
    fn from(check: &CheckResult) -> Self {
        Self {
            component: check.component.to_owned(),
            instance_id: check.instance_id.clone(),
            checked_at: check.checked_at,
            healthy: i64::from(check.healthy),
            latency_us: check.latency_us,
            error: check.error.clone(),
        }
    }
}

impl RawCheck {
    /// The checks of every component ([`COMPONENTS`]) by `instance_id` at `at`, all healthy in
    /// 800 µs: the rounds the tests and benches feed the service (no build of the server calls it).
    #[doc(hidden)]
    pub fn all_healthy(instance_id: &str, at: i64) -> Vec<RawCheck> {
        COMPONENTS
            .iter()
            .map(|(component, _)| RawCheck {
                component: (*component).into(),
                instance_id: instance_id.into(),
                checked_at: at,
                healthy: 1,
                latency_us: 800,
                error: None,
            })
            .collect()
    }
}

/// What is checked and how.
#[derive(Debug, Clone)]
pub struct Checker {
    db: Database,
    queue: Option<(String, reqwest::Client)>,
}

impl Checker {
    pub fn new(db: Database, queue_url: Option<String>) -> Self {
        let queue = queue_url.map(|url| {
            let client = reqwest::Client::builder()
                .timeout(QUEUE_LIMIT)
                .connect_timeout(QUEUE_LIMIT)
                .redirect(reqwest::redirect::Policy::limited(3))
                .build()
                .unwrap_or_default();
            (url, client)
        });
        Self { db, queue }
    }

    /// The ids of the components this instance checks.
    pub fn components(&self) -> Vec<&'static str> {
        COMPONENTS
            .iter()
            .map(|(id, _)| *id)
            .filter(|id| *id != "queue" || self.queue.is_some())
            .collect()
    }

    /// Runs every check at once and stamps them with `now_ms`.
    pub async fn run(&self, instance_id: &str, now_ms: i64) -> Vec<CheckResult> {
        let (api, db, queue) = tokio::join!(self.check_api(), self.check_db(), self.check_queue());
        [("api", Some(api)), ("db", Some(db)), ("queue", queue)]
            .into_iter()
            .filter_map(|(component, outcome)| {
                let (latency, error) = outcome?;
                Some(CheckResult {
                    component,
                    instance_id: instance_id.to_owned(),
                    checked_at: now_ms,
                    healthy: error.is_none(),
                    latency_us: i64::try_from(latency.as_micros()).unwrap_or(i64::MAX),
                    error: error.map(|e| truncate(&e, MAX_ERROR_LEN)),
                })
            })
            .collect()
    }

    /// The API is this process: it is up when the runtime runs a new task promptly.
    async fn check_api(&self) -> (Duration, Option<String>) {
        let started = Instant::now();
        let task = tokio::spawn(async { mg_platform::time::now_ms() });
        match tokio::time::timeout(API_LIMIT, task).await {
            Ok(Ok(_)) => (started.elapsed(), None),
            Ok(Err(_)) => (started.elapsed(), Some("The API task failed.".into())),
            Err(_) => (
                started.elapsed(),
                Some("The API did not run a task within 1 s.".into()),
            ),
        }
    }

    async fn check_db(&self) -> (Duration, Option<String>) {
        let started = Instant::now();
        // A read and a committed write (`db/probe.rs`): a database that answers but stores nothing
        // is down for the people whose saves it refuses.
        let outcome = self.db.probe_now(DB_PING_LIMIT).await;
        (
            started.elapsed(),
            outcome.err().map(|failure| failure.message().to_owned()),
        )
    }

    async fn check_queue(&self) -> Option<(Duration, Option<String>)> {
        let (url, client) = self.queue.as_ref()?;
        let started = Instant::now();
        let error = match client.get(url).send().await {
            Ok(response) if response.status().is_success() => None,
            Ok(response) => Some(format!(
                "The queue answered HTTP {}.",
                response.status().as_u16()
            )),
            Err(error) if error.is_timeout() => Some("The queue did not answer within 5 s.".into()),
            Err(error) if error.is_connect() => Some("The queue refused the connection.".into()),
            Err(_) => Some("The queue could not be reached.".into()),
        };
        Some((started.elapsed(), error))
    }
}

fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => text[..cut].to_owned(),
        None => text.to_owned(),
    }
}
