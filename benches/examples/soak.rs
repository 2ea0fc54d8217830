//! The hostile half of `benches/soak.sh`: next to normal traffic (a `/health` probe and full sign-ins
//! through the identity emulator), for a bounded time on 127.0.0.1 it sends
//! - requests with invented HTTP methods to invented paths,
//! - requests from many client addresses through a trusted proxy's `X-Forwarded-For`,
//! - floods of `logout` calls with junk refresh tokens,
//! - idle connections (nothing sent) and half-open ones (a header block never finished) from
//!   127.0.0.2, more than one client may hold, reopened as soon as the server closes them,
//! - silent connections (never a byte) from 127.0.0.3, `SILENT_CONNECTIONS` of them at once,
//! - a cold-render flood: `COLD_FLOOD` simultaneous first requests for `/llms-full.txt`,
//!
//! then prints what it measured as `key=value` lines: the server's RSS before and after, the `/health`
//! latency percentiles during, and how many sign-ins were tried and completed.
//! Environment: `TARGET` (http://127.0.0.1:PORT), `SERVER_PID`, `SECONDS` (30), `ADDRESSES` (50000),
//! `IDLE_CONNECTIONS` (300), `HALF_OPEN_CONNECTIONS` (200), `SILENT_CONNECTIONS` (1000),
//! `COLD_FLOOD` (200), `LOGOUT_FLOOD` (1; 0 sends none).
//! The hostile connections come from addresses of their own (127.0.0.0/8 is all this machine), so
//! the per-client connection cap applies to them and not to the normal traffic from 127.0.0.1.

use std::{
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering::Relaxed},
        Arc,
    },
    time::{Duration, Instant},
};

use reqwest::{redirect::Policy, Client, Method, RequestBuilder};
use serde_json::Value;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

const PROJECT: &str = "P2localemulator";

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A connection to `authority` from 127.0.0.`last`.
async fn connect_from(last: u8, authority: &str) -> std::io::Result<TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(std::net::SocketAddr::from(([127, 0, 0, last], 0)))?;
    let address = authority
        .parse()
        .map_err(|_| std::io::Error::other("TARGET is not host:port"))?;
    socket.connect(address).await
}

/// Resident memory of `pid` in KiB, from /proc.
fn rss_kib(pid: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmRSS:"))
                .and_then(|line| line.split_whitespace().nth(1))
                .and_then(|kib| kib.parse().ok())
        })
        .unwrap_or(0)
}

#[derive(Default)]
struct Counts {
    methods: AtomicU64,
    addresses: AtomicU64,
    logouts: AtomicU64,
    reconnects: AtomicU64,
    sign_ins_tried: AtomicU64,
    sign_ins_done: AtomicU64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let target = std::env::var("TARGET").unwrap_or_else(|_| "http://127.0.0.1:3995".into());
    let pid = std::env::var("SERVER_PID").unwrap_or_default();
    let seconds = env_number("SECONDS", 30);
    let addresses = env_number("ADDRESSES", 50_000);
    let idle = env_number("IDLE_CONNECTIONS", 300);
    let half_open = env_number("HALF_OPEN_CONNECTIONS", 200);
    let silent = env_number("SILENT_CONNECTIONS", 1000);
    let cold_flood = env_number("COLD_FLOOD", 200);
    let authority = target.trim_start_matches("http://").to_owned();
    let client = Client::builder()
        .redirect(Policy::none())
        .no_proxy()
        .timeout(Duration::from_secs(15))
        .build()?;

    // Warm up with normal traffic, then take the baseline.
    for i in 0..20 {
        let _ = client.get(format!("{target}/health")).send().await?;
        // Counted only during the soak (a server that ignores the header limits these).
        let _ = sign_in(&client, &target, &format!("10.250.0.{i}"), i).await;
    }
    let metrics_before = metrics_size(&client, &target).await;
    let rss_before = rss_kib(&pid);

    let stop = Arc::new(AtomicBool::new(false));
    let counts = Arc::new(Counts::default());
    let mut hostile = Vec::new();

    // Invented methods on invented paths, two connections.
    flood(&mut hostile, 2, &stop, &counts, |counts| &counts.methods, {
        let (client, target) = (client.clone(), target.clone());
        move |n| {
            let method = Method::from_bytes(format!("X{n:X}").as_bytes()).expect("token");
            let path = if n % 2 == 0 {
                "/health".to_owned()
            } else {
                format!("/junk/{n}")
            };
            client.request(method, format!("{target}{path}"))
        }
    });
    // Many client addresses through the trusted proxy header, on a rate-limited route.
    flood(
        &mut hostile,
        3,
        &stop,
        &counts,
        |counts| &counts.addresses,
        {
            let (client, target) = (client.clone(), target.clone());
            move |n| {
                let k = n % addresses;
                let address = format!("172.{}.{}.{}", 16 + (k >> 16), (k >> 8) & 255, k & 255);
                client
                    .post(format!("{target}/api/auth/current-user"))
                    .header("x-forwarded-for", address)
                    .header("content-type", "application/json")
                    .body("{}")
            }
        },
    );
    // Logout floods with junk refresh tokens (LOGOUT_FLOOD=0 leaves them out, to tell their cost apart).
    if env_number("LOGOUT_FLOOD", 1) != 0 {
        flood(&mut hostile, 1, &stop, &counts, |counts| &counts.logouts, {
            let (client, target) = (client.clone(), target.clone());
            move |n| {
                client
                    .post(format!("{target}/v1/auth/logout"))
                    .header(
                        "authorization",
                        format!("Bearer {PROJECT}:junk-refresh-{n}"),
                    )
                    .header("content-type", "application/json")
                    .body("{}")
            }
        });
    }
    // A cold document asked for by many at once: rendered once, the rest wait for it.
    let cold = {
        let (client, target) = (client.clone(), target.clone());
        tokio::spawn(async move {
            let requests: Vec<_> = (0..cold_flood)
                .map(|_| {
                    let (client, target) = (client.clone(), target.clone());
                    tokio::spawn(async move {
                        client
                            .get(format!("{target}/llms-full.txt"))
                            .header("accept-encoding", "br, gzip")
                            .send()
                            .await
                            .map(|r| r.status().as_u16())
                            .unwrap_or(0)
                    })
                })
                .collect();
            let mut ok = 0u64;
            for request in requests {
                ok += u64::from(request.await.unwrap_or(0) == 200);
            }
            ok
        })
    };
    // Idle, half-open and silent connections, reopened whenever the server closes them.
    for i in 0..(idle + half_open + silent) {
        let (authority, stop, counts) = (authority.clone(), stop.clone(), counts.clone());
        let partial = i >= idle && i < idle + half_open;
        let source = if i < idle + half_open { 2 } else { 3 };
        hostile.push(tokio::spawn(async move {
            let mut buf = [0u8; 1024];
            while !stop.load(Relaxed) {
                let Ok(mut stream) = connect_from(source, &authority).await else {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                };
                if partial {
                    let _ = stream
                        .write_all(b"GET /health HTTP/1.1\r\nHost: soak\r\nX-Slow: ")
                        .await;
                }
                loop {
                    tokio::select! {
                        read = stream.read(&mut buf) => match read {
                            Ok(0) | Err(_) => break,
                            Ok(_) => {}
                        },
                        () = tokio::time::sleep(Duration::from_millis(250)) => {
                            if stop.load(Relaxed) { return; }
                        }
                    }
                }
                counts.reconnects.fetch_add(1, Relaxed);
                // Refused at once over the per-client cap: try again soon, not in a busy loop
                // (a real flood would; this one measures what the cap keeps, not accept speed).
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }));
    }

    // Normal traffic: a /health probe every 10 ms, and a full sign-in every 100 ms, each from
    // its own address.
    let probe = {
        let (client, target, stop) = (client.clone(), target.clone(), stop.clone());
        tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut failures = 0u64;
            let mut tick = tokio::time::interval(Duration::from_millis(10));
            while !stop.load(Relaxed) {
                tick.tick().await;
                let started = Instant::now();
                match client.get(format!("{target}/health")).send().await {
                    Ok(r) if r.status() == 200 => latencies.push(started.elapsed()),
                    _ => failures += 1,
                }
            }
            (latencies, failures)
        })
    };
    let signer = {
        let (client, target, stop, counts) =
            (client.clone(), target.clone(), stop.clone(), counts.clone());
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(100));
            let mut i = 0u64;
            let mut errors = Vec::new();
            while !stop.load(Relaxed) {
                tick.tick().await;
                i += 1;
                counts.sign_ins_tried.fetch_add(1, Relaxed);
                let address = format!("10.251.{}.{}", (i >> 8) & 255, i & 255);
                match sign_in(&client, &target, &address, i).await {
                    Ok(()) => {
                        counts.sign_ins_done.fetch_add(1, Relaxed);
                    }
                    Err(error) => errors.push(error.to_string()),
                }
            }
            errors
        })
    };

    tokio::time::sleep(Duration::from_secs(seconds)).await;
    stop.store(true, Relaxed);
    let (mut latencies, probe_failures) = probe.await?;
    let errors = signer.await?;
    let cold_served = cold.await?;
    for task in hostile {
        task.abort();
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_after = rss_kib(&pid);
    let metrics_after = metrics_size(&client, &target).await;

    latencies.sort();
    let percentile = |p: f64| -> f64 {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
    };
    println!("seconds={seconds}");
    println!("invented_methods={}", counts.methods.load(Relaxed));
    println!(
        "forwarded_requests={} distinct_addresses={}",
        counts.addresses.load(Relaxed),
        counts.addresses.load(Relaxed).min(addresses)
    );
    println!("junk_logouts={}", counts.logouts.load(Relaxed));
    println!(
        "idle_connections={idle} half_open_connections={half_open} silent_connections={silent} closed_by_server={}",
        counts.reconnects.load(Relaxed)
    );
    println!("cold_flood={cold_flood} cold_served={cold_served}");
    println!("rss_before_kib={rss_before}");
    println!("rss_after_kib={rss_after}");
    println!("rss_growth_kib={}", rss_after as i64 - rss_before as i64);
    println!("metrics_bytes_before={metrics_before} metrics_bytes_after={metrics_after}");
    println!(
        "health_probes={} health_failures={probe_failures} health_p50_ms={:.2} health_p99_ms={:.2} health_max_ms={:.2}",
        latencies.len(),
        percentile(0.50),
        percentile(0.99),
        latencies.last().map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
    );
    println!(
        "sign_ins_tried={} sign_ins_done={}",
        counts.sign_ins_tried.load(Relaxed),
        counts.sign_ins_done.load(Relaxed)
    );
    for error in errors.iter().take(5) {
        println!("sign_in_error={error}");
    }
    Ok(())
}

async fn metrics_size(client: &Client, target: &str) -> usize {
    match client.get(format!("{target}/metrics")).send().await {
        Ok(response) => response.bytes().await.map(|b| b.len()).unwrap_or(0),
        Err(_) => 0,
    }
}

/// `lanes` connections, each sending `request(n)` until `stop`, one after the other, and counting
/// each in `count`: lane `l` sends `n` = `l`, `l + lanes`, `l + 2 × lanes`, ...
fn flood(
    tasks: &mut Vec<tokio::task::JoinHandle<()>>,
    lanes: u64,
    stop: &Arc<AtomicBool>,
    counts: &Arc<Counts>,
    count: fn(&Counts) -> &AtomicU64,
    request: impl Fn(u64) -> RequestBuilder + Clone + Send + 'static,
) {
    for lane in 0..lanes {
        let (stop, counts, request) = (stop.clone(), counts.clone(), request.clone());
        tasks.push(tokio::spawn(async move {
            let mut n = lane;
            while !stop.load(Relaxed) {
                let _ = request(n).send().await;
                count(&counts).fetch_add(1, Relaxed);
                n += lanes;
            }
        }));
    }
}

/// Sends `request` and reads the string `member` of its JSON answer.
async fn string_member(request: RequestBuilder, member: &str) -> anyhow::Result<String> {
    let answer: Value = request.send().await?.error_for_status()?.json().await?;
    answer[member]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| anyhow::anyhow!("no {member}: {answer}"))
}

/// A whole sign-in through the emulator, as a browser behind the proxy at `address` does it:
/// authorize, the provider page's form, the code exchange, then the signed-in user.
async fn sign_in(client: &Client, target: &str, address: &str, n: u64) -> anyhow::Result<()> {
    let callback = format!("{target}/auth/callback");
    let page = string_member(
        client
            .post(format!("{target}/v1/auth/oauth/authorize"))
            .query(&[("provider", "github"), ("redirectURL", callback.as_str())])
            .header("authorization", format!("Bearer {PROJECT}"))
            .header("x-forwarded-for", address)
            .json(&serde_json::json!({})),
        "url",
    )
    .await?;
    let state = page
        .split("state=")
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("no state in {page}"))?;
    let email = format!("soak-{n}@example.com");
    let back = client
        .post(format!("{target}/emulator/oauth/github"))
        .header("x-forwarded-for", address)
        .form(&[
            ("state", state),
            ("account", "custom"),
            ("email", email.as_str()),
            ("name", "Soak Person"),
            ("outcome", "sign-in"),
        ])
        .send()
        .await?;
    let location = back
        .headers()
        .get("location")
        .and_then(|l| l.to_str().ok())
        .ok_or_else(|| anyhow::anyhow!("page answered {}", back.status()))?;
    let code = location
        .split("code=")
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("no code in {location}"))?
        .to_owned();
    let token = string_member(
        client
            .post(format!("{target}/v1/auth/oauth/exchange"))
            .header("authorization", format!("Bearer {PROJECT}"))
            .header("x-forwarded-for", address)
            .json(&serde_json::json!({ "code": code })),
        "sessionJwt",
    )
    .await?;
    let user = client
        .post(format!("{target}/api/auth/current-user"))
        .bearer_auth(&token)
        .header("x-forwarded-for", address)
        .json(&serde_json::json!({}))
        .send()
        .await?;
    anyhow::ensure!(
        user.status() == 200,
        "current-user answered {}",
        user.status()
    );
    Ok(())
}
