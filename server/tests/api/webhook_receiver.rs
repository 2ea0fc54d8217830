//! A webhook receiver for the tests: a real HTTP server on 127.0.0.1 that records every request
//! and answers by path: `/ok` 200; `/slow` 200 after 300 ms; `/fail-once` 500 to its first
//! request, then 200; `/redirect` 302 to `/ok` (which a sender must not follow); `/stall` holds its
//! first request for two minutes (the sender is killed meanwhile), then answers 200; any path
//! starting `/hang` holds every request for two minutes (the sender gives up first).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{
    http::{HeaderMap, StatusCode, Uri},
    response::{IntoResponse, Response},
    Router,
};
use ring::hmac;

/// One request as the receiver got it.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    pub headers: HashMap<String, String>,
    pub body: String,
}

impl Received {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).map_or("", String::as_str)
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).expect("a JSON body")
    }

    /// Whether `X-MG-Signature` is the HMAC-SHA256 of `{X-MG-Timestamp}.{body}` under the key
    /// whose hex is `secret`, as docs/status-operators.md tells receivers to check it.
    pub fn signed_with(&self, secret: &str) -> bool {
        let key_bytes = (0..secret.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&secret[i..i + 2], 16).expect("hex"))
            .collect::<Vec<u8>>();
        let key = hmac::Key::new(hmac::HMAC_SHA256, &key_bytes);
        let Some(hex) = self.header("x-mg-signature").strip_prefix("sha256=") else {
            return false;
        };
        let Some(tag) = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
            .collect::<Option<Vec<u8>>>()
        else {
            return false;
        };
        let message = format!("{}.{}", self.header("x-mg-timestamp"), self.body);
        hmac::verify(&key, message.as_bytes(), &tag).is_ok()
    }
}

#[derive(Debug, Clone, Default)]
pub struct Receiver {
    pub base: String,
    got: Arc<Mutex<Vec<Received>>>,
}

impl Receiver {
    pub async fn start() -> Self {
        let got: Arc<Mutex<Vec<Received>>> = Arc::default();
        let seen = got.clone();
        let app = Router::new().fallback(move |uri: Uri, headers: HeaderMap, body: String| {
            let seen = seen.clone();
            async move { answer(&seen, &uri, &headers, body).await }
        });
        let base = crate::helpers::serve(app).await;
        Self { base, got }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The requests to `path` so far.
    pub fn got(&self, path: &str) -> Vec<Received> {
        let got = self.got.lock().expect("lock");
        got.iter().filter(|r| r.path == path).cloned().collect()
    }

    /// Waits up to `seconds` for `count` requests to `path`; the requests then.
    pub async fn wait_for(&self, path: &str, count: usize, seconds: u64) -> Vec<Received> {
        for _ in 0..seconds * 10 {
            if self.got(path).len() >= count {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        self.got(path)
    }
}

async fn answer(
    seen: &Mutex<Vec<Received>>,
    uri: &Uri,
    headers: &HeaderMap,
    body: String,
) -> Response {
    let path = uri.path().to_owned();
    let received = Received {
        path: path.clone(),
        headers: headers
            .iter()
            .map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap_or("").to_owned()))
            .collect(),
        body,
    };
    let earlier = {
        let mut got = seen.lock().expect("lock");
        let earlier = got.iter().filter(|r| r.path == path).count();
        got.push(received);
        earlier
    };
    match (path.as_str(), earlier) {
        ("/fail-once", 0) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        ("/redirect", _) => (StatusCode::FOUND, [("location", "/ok")]).into_response(),
        // A slow, a hanging and a stalling receiver: real connections held open are the subject.
        ("/slow", _) => {
            tokio::time::sleep(Duration::from_millis(300)).await;
            StatusCode::OK.into_response()
        }
        (hang, _) if hang.starts_with("/hang") => {
            tokio::time::sleep(Duration::from_secs(120)).await;
            StatusCode::OK.into_response()
        }
        ("/stall", 0) => {
            tokio::time::sleep(Duration::from_secs(120)).await;
            StatusCode::OK.into_response()
        }
        _ => StatusCode::OK.into_response(),
    }
}
