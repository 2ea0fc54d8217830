//! The production shape with real parts: Debian's nginx, configured from the shipped site file
//! (`deploy/nginx-mg-web.conf`), terminating TLS in front of two `mg-server` processes on one
//! database (PostgreSQL; SQLite shared by both only where that is enough and PostgreSQL is not
//! configured outside CI). nginx runs unprivileged-style in the foreground with its own prefix,
//! and every test stops it (master and workers) before it ends.
//! Clients are told apart by their source address: 127.0.0.2 and 127.0.0.3 are both loopback.
//! The harness (nginx, the instances, the proxy) is here; the tests, by subject: one allowance per
//! client across instances, no spoofing, HSTS (`rate_limits`); an instance killed under traffic
//! (`failover`).

use std::{
    net::IpAddr,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use serde_json::{json, Value};
use tempfile::TempDir;

use crate::helpers::{
    free_port, healthy_within_10_s, server_command, spawn_app_with, Process, TestApp, TestBackend,
};

/// nginx's master process (which owns its workers) under the prefix `dir`. Stopped with SIGQUIT, so
/// the master closes its workers and waits for them before it exits: SIGKILL would leave the
/// workers running, orphaned.
struct Nginx {
    master: Child,
    prefix: String,
    stopped: bool,
}

/// `pid`'s parent and state (`R`, `S`, `Z`, ...) from `/proc/<pid>/stat`.
fn parent_and_state(pid: u32) -> Option<(u32, char)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
    let mut fields = stat.get(stat.rfind(')')? + 1..)?.split_whitespace();
    let state = fields.next()?.chars().next()?;
    Some((fields.next()?.parse().ok()?, state))
}

impl Nginx {
    /// The live (not zombie) processes of this nginx: the master, whose command line names the
    /// prefix, and its children (the workers), or any of `known` that still runs as nginx.
    fn processes(&self, known: &[u32]) -> Vec<u32> {
        let master = self.master.id();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&pid| {
                let Some((parent, state)) = parent_and_state(pid) else {
                    return false;
                };
                let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                let cmdline = String::from_utf8_lossy(&cmdline);
                state != 'Z'
                    && (cmdline.contains(&self.prefix)
                        || parent == master
                        || (known.contains(&pid) && cmdline.starts_with("nginx")))
            })
            .collect()
    }

    /// Stops the master gracefully and waits; returns the processes of this nginx still running
    /// afterwards (none, unless the graceful stop failed and they had to be killed).
    fn stop(&mut self) -> Vec<u32> {
        if self.stopped {
            return Vec::new();
        }
        self.stopped = true;
        let before = self.processes(&[]);
        let _ = Command::new("kill")
            .args(["-QUIT", &self.master.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.master.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let left = self.processes(&before);
        for pid in &left {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
        let _ = self.master.kill();
        let _ = self.master.wait();
        left
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        self.stop();
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
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start mg-server");
    let process = Process(child);
    let base = format!("http://127.0.0.1:{port}");
    assert!(
        healthy_within_10_s(&app.client, &base).await,
        "{base} did not become healthy"
    );
    (process, base)
}

/// `GET url` through `client`, which must answer `status`: the answer.
async fn get_answering(client: &reqwest::Client, url: &str, status: u16) -> reqwest::Response {
    let response = client.get(url).send().await.expect("answer");
    assert_eq!(response.status(), status, "{url}");
    response
}

/// nginx in front of `upstreams`, from the shipped template; answers on `https` (TLS ends there)
/// and `http` (which only redirects).
struct Proxy {
    nginx: Nginx,
    _dir: TempDir,
    https: String,
    http: String,
}

impl Proxy {
    /// Stops nginx and fails if any of its processes is left running.
    fn stop(mut self) {
        let left = self.nginx.stop();
        assert!(left.is_empty(), "nginx processes left running: {left:?}");
        let left = self.nginx.processes(&[]);
        assert!(left.is_empty(), "nginx processes left running: {left:?}");
    }
}

/// The site file with its placeholders filled; the rate-limit numbers follow from
/// `rate_limit_per_minute` as the file's header says.
fn render_site(
    dir: &Path,
    upstreams: &[&str],
    https_port: u16,
    http_port: u16,
    rate_limit_per_minute: u32,
) -> String {
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
        )
        .replace(
            "@RATE_LIMIT_PER_MINUTE@",
            &rate_limit_per_minute.to_string(),
        )
        .replace(
            "@RATE_LIMIT_BURST@",
            &((rate_limit_per_minute / 4).max(1) - 1).to_string(),
        )
        .replace(
            "@RATE_LIMIT_RETRY_AFTER@",
            &60u32.div_ceil(rate_limit_per_minute).max(1).to_string(),
        );
    let unfilled: Vec<&str> = site
        .lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .filter(|line| line.matches('@').count() >= 2)
        .collect();
    assert!(unfilled.is_empty(), "placeholders left: {unfilled:?}");
    site
}

/// nginx from the shipped site file in front of `upstreams`, limiting each client to
/// `rate_limit_per_minute` on the rate-limited routes.
async fn start_proxy(nginx: &Path, upstreams: &[&str], rate_limit_per_minute: u32) -> Proxy {
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
    let site = render_site(
        dir.path(),
        upstreams,
        https_port,
        http_port,
        rate_limit_per_minute,
    );
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
    let nginx = Nginx {
        master: child,
        prefix: prefix.clone(),
        stopped: false,
    };
    let https = format!("https://127.0.0.1:{https_port}");
    let client = client_from([127, 0, 0, 1]);
    for _ in 0..200 {
        if let Ok(response) = client.get(format!("{https}/health")).send().await {
            if response.status() == 200 {
                return Proxy {
                    nginx,
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

mod failover;
mod rate_limits;
