//! The production shape with real parts: Debian's nginx, configured from the shipped site file
//! (`deploy/nginx-mg-web.conf`), terminating TLS in front of two `mg-server` processes on one
//! database (PostgreSQL; SQLite shared by both only where that is enough and PostgreSQL is not
//! configured outside CI). nginx runs unprivileged-style in the foreground with its own prefix.
//! Clients are told apart by their source address: 127.0.0.2 and 127.0.0.3 are both loopback.

use std::{
    net::IpAddr,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::Duration,
};

use serde_json::{json, Value};
use tempfile::TempDir;

use crate::helpers::{free_port, server_command, spawn_app_with, TestApp, TestBackend};

/// A child process stopped (SIGKILL) when dropped.
struct Process(Child);

impl Process {
    fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// nginx, or `None` outside CI when it is not installed (in CI that is a failure).
fn nginx_binary() -> Option<PathBuf> {
    let found = ["/usr/sbin/nginx", "/usr/bin/nginx"]
        .iter()
        .map(PathBuf::from)
        .find(|path| path.exists());
    match found {
        Some(path) => Some(path),
        None if std::env::var("CI").is_ok() => {
            panic!("CI must run the deployment test: install nginx-light (scripts/ensure-tools.sh)")
        }
        None => {
            eprintln!("nginx is not installed: the deployment test is not run locally");
            None
        }
    }
}

/// A client that connects from `source` (a loopback address) and accepts the test certificate.
fn client_from(source: [u8; 4]) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::from(source))
        .danger_accept_invalid_certs(true)
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client")
}

/// One `mg-server` process on `app`'s database and identity provider, behind the proxy.
async fn start_instance(app: &TestApp, rate_limit_per_minute: u32) -> (Process, String) {
    let port = free_port();
    let child = server_command(app, port)
        .env("RATE_LIMIT_PER_MINUTE", rate_limit_per_minute.to_string())
        .env("TRUSTED_PROXIES", "127.0.0.1/32")
        .env("DATABASE_MAX_CONNECTIONS", "4")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start mg-server");
    let process = Process(child);
    let base = format!("http://127.0.0.1:{port}");
    wait_for_health(&app.client, &base).await;
    (process, base)
}

async fn wait_for_health(client: &reqwest::Client, base: &str) {
    for _ in 0..200 {
        if let Ok(response) = client.get(format!("{base}/health")).send().await {
            if response.status() == 200 {
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{base} did not become healthy");
}

/// nginx in front of `upstreams`, from the shipped template; answers on `https` (TLS ends there)
/// and `http` (which only redirects).
struct Proxy {
    _process: Process,
    _dir: TempDir,
    https: String,
    http: String,
}

fn render_site(dir: &Path, upstreams: &[&str], https_port: u16, http_port: u16) -> String {
    let template = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../deploy/nginx-mg-web.conf"
    ))
    .expect("deploy/nginx-mg-web.conf");
    let servers: String = upstreams
        .iter()
        .map(|base| {
            format!(
                "server {} max_fails=1 fail_timeout=5s; ",
                base.trim_start_matches("http://")
            )
        })
        .collect();
    let site = template
        .replace("@UPSTREAM_SERVERS@", &servers)
        .replace("@SERVER_NAME@", "localhost")
        .replace("@HTTPS_LISTEN@", &format!("127.0.0.1:{https_port}"))
        .replace("@HTTP_LISTEN@", &format!("127.0.0.1:{http_port}"))
        .replace(
            "@TLS_CERTIFICATE@",
            &dir.join("cert.pem").display().to_string(),
        )
        .replace(
            "@TLS_CERTIFICATE_KEY@",
            &dir.join("key.pem").display().to_string(),
        );
    let unfilled: Vec<&str> = site
        .lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .filter(|line| line.matches('@').count() >= 2)
        .collect();
    assert!(unfilled.is_empty(), "placeholders left: {unfilled:?}");
    site
}

async fn start_proxy(nginx: &Path, upstreams: &[&str]) -> Proxy {
    let dir = tempfile::tempdir().expect("nginx prefix");
    let status = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt"])
        .arg("ec_paramgen_curve:P-256")
        .args(["-nodes", "-days", "2", "-subj", "/CN=localhost", "-keyout"])
        .arg(dir.path().join("key.pem"))
        .arg("-out")
        .arg(dir.path().join("cert.pem"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("openssl makes the test certificate (apt-get install -y openssl)");
    assert!(status.success(), "openssl failed");
    let (https_port, http_port) = (free_port(), free_port());
    let site = render_site(dir.path(), upstreams, https_port, http_port);
    std::fs::write(dir.path().join("site.conf"), site).expect("write site");
    let prefix = dir.path().display().to_string();
    let main = format!(
        "daemon off;\nworker_processes 1;\npid {prefix}/nginx.pid;\nerror_log {prefix}/error.log warn;\n\
         events {{ worker_connections 1024; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {prefix}/body;\n  proxy_temp_path {prefix}/proxy;\n\
         include {prefix}/site.conf;\n}}\n"
    );
    std::fs::write(dir.path().join("nginx.conf"), main).expect("write nginx.conf");
    let child = Command::new(nginx)
        .arg("-c")
        .arg(dir.path().join("nginx.conf"))
        .arg("-p")
        .arg(dir.path())
        .arg("-e")
        .arg(dir.path().join("error.log"))
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start nginx");
    let process = Process(child);
    let https = format!("https://127.0.0.1:{https_port}");
    let client = client_from([127, 0, 0, 1]);
    for _ in 0..200 {
        if let Ok(response) = client.get(format!("{https}/health")).send().await {
            if response.status() == 200 {
                return Proxy {
                    _process: process,
                    _dir: dir,
                    https,
                    http: format!("http://127.0.0.1:{http_port}"),
                };
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let log = std::fs::read_to_string(dir.path().join("error.log")).unwrap_or_default();
    panic!("nginx did not answer; error.log:\n{log}");
}

async fn post_wisdom(client: &reqwest::Client, base: &str, spoof: bool) -> reqwest::Response {
    let mut request = client
        .post(format!("{base}/api/wisdom"))
        .header("content-type", "application/json")
        .body("{}");
    if spoof {
        request = request
            .header("x-forwarded-for", "127.0.0.9")
            .header("forwarded", "for=127.0.0.9")
            .header("x-real-ip", "127.0.0.9");
    }
    request.send().await.expect("the proxy answers")
}

/// The database both instances share: PostgreSQL when configured (always in CI), else SQLite.
async fn shared_database() -> TestApp {
    let backend = if crate::helpers::postgres_admin_url().is_some() || std::env::var("CI").is_ok() {
        TestBackend::Postgres
    } else {
        TestBackend::Sqlite
    };
    spawn_app_with(backend, |_| {})
        .await
        .expect("a database for the instances")
}

#[tokio::test]
async fn behind_nginx_each_client_has_its_own_rate_limit_bucket_none_can_spoof_and_hsts_follows_tls(
) {
    let Some(nginx) = nginx_binary() else {
        return;
    };
    let app = shared_database().await;
    // 8 per minute: a burst of 2 per instance, then 429 for a good 7 seconds.
    let (_a, first) = start_instance(&app, 8).await;
    let (_b, second) = start_instance(&app, 8).await;
    let proxy = start_proxy(&nginx, &[&first, &second]).await;
    let alice = client_from([127, 0, 0, 2]);
    let bob = client_from([127, 0, 0, 3]);

    // TLS ended at nginx: HSTS. Plain HTTP is only a redirect to HTTPS.
    let response = alice
        .get(format!("{}/health", proxy.https))
        .send()
        .await
        .expect("answer");
    assert_eq!(response.status(), 200);
    assert!(
        response.headers().contains_key("strict-transport-security"),
        "{:?}",
        response.headers()
    );
    let response = alice
        .get(format!("{}/health", proxy.http))
        .send()
        .await
        .expect("answer");
    assert_eq!(response.status(), 301);
    assert!(response.headers()["location"]
        .to_str()
        .expect("ascii")
        .starts_with("https://"));
    // Straight to an instance from an address that is not a trusted proxy, the same claim of
    // TLS is not believed.
    let response = alice
        .get(format!("{first}/health"))
        .header("x-forwarded-proto", "https")
        .send()
        .await
        .expect("answer");
    assert!(!response.headers().contains_key("strict-transport-security"));

    // Alice uses up her bucket on both instances (nginx alternates between them).
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(
            post_wisdom(&alice, &proxy.https, false)
                .await
                .status()
                .as_u16(),
        );
    }
    assert!(
        statuses.iter().filter(|s| **s == 200).count() <= 5,
        "{statuses:?}"
    );
    assert_eq!(statuses[6..], [429, 429], "{statuses:?}");
    // Claiming another address through the proxy does not give her a new bucket.
    for _ in 0..4 {
        let response = post_wisdom(&alice, &proxy.https, true).await;
        assert_eq!(response.status(), 429);
        assert!(response.headers().contains_key("retry-after"));
        let body: Value = response.json().await.expect("JSON");
        assert_eq!(body["code"], "rate_limited");
    }
    // Nor does a byte that is not text in X-Forwarded-For: before, the whole header was
    // unreadable and she counted as nginx itself (a fresh bucket, the proxy's privileges).
    for _ in 0..2 {
        let response = alice
            .post(format!("{}/api/wisdom", proxy.https))
            .header("content-type", "application/json")
            .header(
                "x-forwarded-for",
                reqwest::header::HeaderValue::from_bytes(b"\xff").expect("obs-text"),
            )
            .body("{}")
            .send()
            .await
            .expect("the proxy answers");
        assert_eq!(
            response.status(),
            429,
            "junk in X-Forwarded-For is still Alice"
        );
    }
    // Bob, behind the same proxy, has his own.
    for _ in 0..2 {
        assert_eq!(post_wisdom(&bob, &proxy.https, false).await.status(), 200);
    }
    // The proxy does not hand out the instances' metrics.
    let response = alice
        .get(format!("{}/metrics", proxy.https))
        .send()
        .await
        .expect("answer");
    assert_eq!(response.status(), 404);
    if app.database_url.starts_with("postgres") {
        crate::helpers::drop_postgres_database(&app.database_url).await;
    }
}

/// Each writer updates its own user's name in sequence; returns (last acknowledged, attempts after it).
async fn writer(
    client: reqwest::Client,
    base: String,
    token: String,
    writer: usize,
    done: Arc<AtomicUsize>,
    failures: Arc<AtomicUsize>,
    until: usize,
) -> (Option<String>, Vec<String>) {
    let mut acknowledged = None;
    let mut unacknowledged = Vec::new();
    let mut sequence = 0;
    while done.load(Ordering::SeqCst) < until {
        sequence += 1;
        let name = format!("Writer {writer} update {sequence}");
        let status = client
            .post(format!("{base}/api/auth/update-profile"))
            .bearer_auth(&token)
            .json(&json!({ "name": name }))
            .send()
            .await
            .map(|r| r.status().as_u16())
            .unwrap_or(0);
        if status == 200 {
            acknowledged = Some(name);
            unacknowledged.clear();
        } else {
            failures.fetch_add(1, Ordering::SeqCst);
            unacknowledged.push(name);
        }
        done.fetch_add(1, Ordering::SeqCst);
    }
    (acknowledged, unacknowledged)
}

#[tokio::test]
async fn behind_nginx_killing_one_instance_under_traffic_loses_no_acknowledged_update() {
    let Some(nginx) = nginx_binary() else {
        return;
    };
    let Some(app) = spawn_app_with(TestBackend::Postgres, |_| {}).await else {
        return;
    };
    let (mut doomed, first) = start_instance(&app, 1_000_000).await;
    let (_survivor, second) = start_instance(&app, 1_000_000).await;
    let proxy = start_proxy(&nginx, &[&first, &second]).await;
    let client = client_from([127, 0, 0, 2]);

    const WRITERS: usize = 8;
    const TOTAL: usize = 400;
    let done = Arc::new(AtomicUsize::new(0));
    let failures = Arc::new(AtomicUsize::new(0));
    let tokens: Vec<String> = (0..WRITERS)
        .map(|i| app.identity.session_token(&format!("writer-{i}")))
        .collect();
    let tasks: Vec<_> = tokens
        .iter()
        .enumerate()
        .map(|(i, token)| {
            tokio::spawn(writer(
                client.clone(),
                proxy.https.clone(),
                token.clone(),
                i,
                done.clone(),
                failures.clone(),
                TOTAL,
            ))
        })
        .collect();
    while done.load(Ordering::SeqCst) < TOTAL / 4 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    doomed.kill();
    let killed_at = done.load(Ordering::SeqCst);
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.expect("writer"));
    }
    // Only requests in flight when the instance died may fail (nginx does not repeat a POST it
    // already sent); every later one is served by the survivor.
    let failed = failures.load(Ordering::SeqCst);
    assert!(
        failed <= WRITERS,
        "{failed} failed updates (killed after {killed_at})"
    );
    for (i, (token, (acknowledged, unacknowledged))) in tokens.iter().zip(&outcomes).enumerate() {
        let response = client
            .post(format!("{}/api/auth/current-user", proxy.https))
            .bearer_auth(token)
            .json(&json!({}))
            .send()
            .await
            .expect("the proxy answers");
        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.expect("JSON");
        let stored = body["data"]["name"].as_str().unwrap_or_default().to_owned();
        let acknowledged = acknowledged.as_ref().expect("some update acknowledged");
        // The last acknowledged name, unless a later update (not acknowledged, in flight at the
        // kill) went through after all.
        assert!(
            &stored == acknowledged || unacknowledged.contains(&stored),
            "writer {i}: stored {stored:?}, last acknowledged {acknowledged:?}"
        );
    }
    for _ in 0..10 {
        let response = client
            .get(format!("{}/health", proxy.https))
            .send()
            .await
            .expect("the proxy answers");
        assert_eq!(response.status(), 200);
    }
    crate::helpers::drop_postgres_database(&app.database_url).await;
}
