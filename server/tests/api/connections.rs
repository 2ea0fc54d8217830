//! Connections as hyper-util's accept loop holds them (`server/src/serve.rs`), over raw sockets: a
//! half-sent header block and a silent connection closed within their timeouts, a per-client cap
//! and a per-network cap, a head too large for the connection buffer refused, `/health` answering
//! beside 500 held connections, the connection cap holding, and SIGTERM stopping the server
//! promptly with such connections open. HTTP/2 connections' idle time and age:
//! `connection_lifetimes.rs`.

use std::time::{Duration, Instant};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

use crate::{edge::sqlite_app, helpers::TestApp};

/// Reads until the server closes the connection; `None` if it is still open after `limit`.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> Option<(Duration, Vec<u8>)> {
    let started = Instant::now();
    let mut received = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        let remaining = limit.checked_sub(started.elapsed())?;
        match tokio::time::timeout(remaining, stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some((started.elapsed(), received)),
            Ok(Ok(n)) => received.extend_from_slice(&buf[..n]),
        }
    }
}

fn authority(app: &TestApp) -> String {
    app.address.trim_start_matches("http://").to_owned()
}

/// A new connection to `app`.
async fn connect(app: &TestApp) -> TcpStream {
    TcpStream::connect(authority(app)).await.expect("connect")
}

/// `count` new connections to `app`, for the caller to hold.
async fn open(app: &TestApp, count: usize) -> Vec<TcpStream> {
    let mut held = Vec::with_capacity(count);
    for _ in 0..count {
        held.push(connect(app).await);
    }
    held
}

/// `/health` over a connection of its own, given up after `limit`.
async fn health_within(app: &TestApp, limit: Duration) -> reqwest::Result<reqwest::Response> {
    reqwest::Client::new()
        .get(format!("{}/health", app.address))
        .timeout(limit)
        .send()
        .await
}

/// How long a test waits for a whole answer.
const FIVE_SECONDS: Duration = Duration::from_secs(5);

/// `/health`, asking the server to close the connection after the answer.
const HEALTH_THEN_CLOSE: &[u8] = b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

/// Writes `bytes` and reads until the server closes the connection (within `limit`): what it
/// answered. The server may stop reading once it has seen enough, so a failed write is no error.
async fn answer_to(stream: &mut TcpStream, bytes: &[u8], limit: Duration) -> String {
    let _ = stream.write_all(bytes).await;
    let (_, answer) = closed_within(stream, limit)
        .await
        .expect("answered and closed");
    String::from_utf8_lossy(&answer).into_owned()
}

/// `stream` is served: `/health` answers 200 within `limit`.
async fn assert_served(stream: &mut TcpStream, limit: Duration) {
    let answer = answer_to(stream, HEALTH_THEN_CLOSE, limit).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

/// The server closes `stream` (`what` it is, for a failure) within 5 s, but not before the second
/// the test configured.
async fn assert_closed_after_a_second(stream: &mut TcpStream, what: &str) {
    let (after, _) = closed_within(stream, FIVE_SECONDS)
        .await
        .unwrap_or_else(|| panic!("{what} is closed"));
    assert!(
        after >= Duration::from_millis(900),
        "{what}: closed after {after:?}"
    );
}

#[tokio::test]
async fn a_half_sent_header_block_is_closed_within_the_header_timeout() {
    let app = sqlite_app(|config| {
        config.network.header_read_timeout = Duration::from_secs(1);
    })
    .await;
    let mut stream = connect(&app).await;
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .await
        .expect("write");
    assert_closed_after_a_second(&mut stream, "a connection whose headers never end").await;
    // Whole requests are still served.
    assert_eq!(app.get("/health").await.status(), 200);
}

#[tokio::test]
async fn idle_connections_are_closed_after_the_idle_timeout() {
    let app = sqlite_app(|config| {
        config.network.idle_timeout = Duration::from_secs(1);
    })
    .await;
    assert_closed_after_a_second(&mut connect(&app).await, "a silent connection").await;
    // A keep-alive connection after one answered request.
    let answer = answer_to(
        &mut connect(&app).await,
        b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n",
        FIVE_SECONDS,
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn a_connection_that_never_sends_a_byte_is_closed_within_the_header_timeout() {
    // Before: hyper's header timer starts at the first byte, so a silent connection held its
    // slot until the 60 s idle timeout.
    let app = sqlite_app(|config| {
        config.network.header_read_timeout = Duration::from_secs(1);
        config.network.idle_timeout = Duration::from_secs(60);
    })
    .await;
    assert_closed_after_a_second(&mut connect(&app).await, "a connection that sends nothing").await;
    // A connection that sends its request in time is served.
    let mut talking = connect(&app).await;
    // A real connection's header timeout is the subject: half of it passes before the request.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_served(&mut talking, Duration::from_secs(3)).await;
}

/// A connection from the loopback address `source` (127.0.0.0/8 is all this machine).
async fn connect_from(source: [u8; 4], app: &TestApp) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind((std::net::Ipv4Addr::from(source), 0).into())
        .expect("bind the source address");
    socket
        .connect(authority(app).parse().expect("socket address"))
        .await
        .expect("connect")
}

#[tokio::test]
async fn one_client_cannot_hold_every_connection_slot() {
    // Before: the cap was global only, so one address's silent sockets starved everyone.
    let app = sqlite_app(|config| {
        config.network.max_connections = 50;
        config.network.max_connections_per_client = 5;
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..5 {
        let mut stream = connect_from([127, 0, 0, 2], &app).await;
        stream
            .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
            .await
            .expect("write");
        held.push(stream);
    }
    // Let the accept loop take all five (real connections: the server's accept loop is the subject).
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut over = connect_from([127, 0, 0, 2], &app).await;
    closed_within(&mut over, Duration::from_secs(2))
        .await
        .expect("the client's sixth connection is closed at once");
    // Another client is served at once.
    assert_served(
        &mut connect_from([127, 0, 0, 3], &app).await,
        Duration::from_secs(2),
    )
    .await;
    // Once one of its connections closes, the first client may open another.
    held.pop();
    // A real connection's close reaching the accept loop is the subject.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_served(
        &mut connect_from([127, 0, 0, 2], &app).await,
        Duration::from_secs(2),
    )
    .await;
}

#[tokio::test]
async fn the_addresses_of_one_network_cannot_hold_every_connection_slot() {
    // Before: the cap was per address only, so a handful of addresses of one /24, each under its
    // own cap, held every slot and `/health` waited in the listen backlog.
    let app = sqlite_app(|config| {
        config.network.max_connections = 40;
        config.network.max_connections_per_client = 5;
        config.network.max_connections_per_network = 20;
    })
    .await;
    // Nine addresses of 127.0.0.0/24, five half-sent requests each: 45 would be past the total.
    let mut held = Vec::new();
    for last in 2..=10 {
        for _ in 0..5 {
            let mut stream = connect_from([127, 0, 0, last], &app).await;
            let _ = stream
                .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
                .await;
            held.push(stream);
        }
    }
    // Let the accept loop take all 45 (real connections: the server's accept loop is the subject).
    tokio::time::sleep(Duration::from_millis(300)).await;
    // A client of another network is served at once.
    assert_served(
        &mut connect_from([127, 0, 1, 1], &app).await,
        Duration::from_secs(2),
    )
    .await;
    // Twenty are held; the others were closed at once.
    let mut closed = 0;
    for stream in &mut held {
        if closed_within(stream, Duration::from_millis(20))
            .await
            .is_some()
        {
            closed += 1;
        }
    }
    assert_eq!(closed, 25, "connections of the /24 past its cap");
    // A new address of the same /24 is refused too, even though it holds nothing yet.
    let mut fresh = connect_from([127, 0, 0, 11], &app).await;
    closed_within(&mut fresh, Duration::from_secs(2))
        .await
        .expect("the network's next connection is closed at once");
}

#[tokio::test]
async fn a_request_head_larger_than_the_connection_buffer_is_refused_with_431() {
    let app = sqlite_app(|_| {}).await;
    let head = format!(
        "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(100 * 1024)
    );
    assert_too_large(&app, &head).await;
}

/// `head` is too large for the connection buffer: 431, the JSON error with the security headers.
async fn assert_too_large(app: &TestApp, head: &str) {
    let answer = answer_to(&mut connect(app).await, head.as_bytes(), FIVE_SECONDS).await;
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");
    assert_json_error_with_headers(&answer, "request_header_fields_too_large");
}

/// hyper's own answers (before the service runs) carry the JSON error and the security headers.
fn assert_json_error_with_headers(answer: &str, code: &str) {
    let lower = answer.to_ascii_lowercase();
    for header in [
        "\r\ncontent-type: application/json\r\n",
        "\r\nx-content-type-options: nosniff\r\n",
        "\r\ncontent-security-policy: ",
    ] {
        assert!(lower.contains(header), "{header:?} in {answer}");
    }
    let body = answer.split("\r\n\r\n").nth(1).expect("a body");
    let json: serde_json::Value = serde_json::from_str(body).expect("JSON body");
    assert_eq!(json["code"], code, "{answer}");
    assert!(
        json["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{answer}"
    );
}

#[tokio::test]
async fn requests_hyper_cannot_read_are_answered_with_the_json_error_and_security_headers() {
    // Before: hyper answered these itself with an empty body and no security headers.
    let app = sqlite_app(|_| {}).await;
    let cases: [(&[u8], &str, &str); 3] = [
        (b"GET /a\x01b HTTP/1.1\r\nHost: x\r\n\r\n", "400", "bad_request"),
        (
            b"POST /api/wisdom HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
            "400",
            "bad_request",
        ),
        (b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
            "400",
            "bad_request",
        ),
    ];
    for (request, status, code) in cases {
        let answer = answer_to(&mut connect(&app).await, request, FIVE_SECONDS).await;
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}")),
            "{answer}"
        );
        assert_json_error_with_headers(&answer, code);
    }
    // A query of 100 KB overflows the head buffer: 431, the same shape.
    let query = format!(
        "GET /health?q={} HTTP/1.1\r\nHost: x\r\n\r\n",
        "a".repeat(100 * 1024)
    );
    assert_too_large(&app, &query).await;
    // Whole requests on a kept-alive connection are unaffected: two answers, then a bad one.
    let answer = answer_to(
        &mut connect(&app).await,
        b"GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\nGET /a\x01 HTTP/1.1\r\nHost: x\r\n\r\n",
        FIVE_SECONDS,
    )
    .await;
    assert_eq!(answer.matches("HTTP/1.1 ").count(), 3, "{answer}");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("HTTP/1.1 404"), "{answer}");
    let last = &answer[answer.rfind("HTTP/1.1 ").expect("three")..];
    assert!(last.starts_with("HTTP/1.1 400"), "{answer}");
    assert_json_error_with_headers(last, "bad_request");
}

#[tokio::test]
async fn health_keeps_answering_while_500_idle_connections_are_held() {
    // All 500 come from one address here; the per-client cap has its own test.
    let app = sqlite_app(|config| config.network.max_connections_per_client = 1000).await;
    let mut held = open(&app, 500).await;
    // Half of them half-open: a header block that never ends.
    for stream in held.iter_mut().step_by(2) {
        stream
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
            .await
            .expect("write");
    }
    let client = reqwest::Client::new();
    for _ in 0..20 {
        let started = Instant::now();
        let response = client
            .get(format!("{}/health", app.address))
            .timeout(Duration::from_secs(2))
            .send()
            .await
            .expect("/health answers beside 500 idle connections");
        assert_eq!(response.status(), 200);
        assert!(started.elapsed() < Duration::from_secs(1));
    }
    drop(held);
}

/// `/health` on `stream`, which stays open after the answer (a keep-alive): whether it answered
/// 200 within two seconds. Reads the whole answer (head, then `Content-Length` bytes), so the
/// next request on the stream reads its own.
async fn kept_alive_and_served(stream: &mut TcpStream) -> bool {
    if stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .is_err()
    {
        return false;
    }
    let read_all = async {
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let n = stream.read(&mut buf).await.ok()?;
            if n == 0 {
                return None;
            }
            got.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&got).into_owned();
            if let Some(end) = text.find("\r\n\r\n") {
                let length: usize = text[..end]
                    .lines()
                    .find_map(|line| {
                        let (name, value) = line.split_once(':')?;
                        name.eq_ignore_ascii_case("content-length")
                            .then(|| value.trim().parse().ok())?
                    })
                    .unwrap_or(0);
                if got.len() >= end + 4 + length {
                    return Some(text);
                }
            }
        }
    };
    matches!(
        tokio::time::timeout(Duration::from_secs(2), read_all).await,
        Ok(Some(text)) if text.starts_with("HTTP/1.1 200")
    )
}

#[tokio::test]
async fn at_the_cap_the_stalest_connection_gives_way_to_a_newcomer() {
    // Before: a fourth client waited in the listen backlog until one of three idle keep-alives
    // timed out, so clients sending a request now and then on each connection held every slot.
    let app = sqlite_app(|config| config.network.max_connections = 3).await;
    let mut held = open(&app, 3).await;
    for stream in &mut held {
        // Served (so it holds a slot), then kept open, the first one stalest.
        assert!(kept_alive_and_served(stream).await);
        // Real connections' last use orders them (the stalest gives way): apart in time.
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let response = health_within(&app, Duration::from_secs(2))
        .await
        .expect("a newcomer is served at the cap");
    assert_eq!(response.status(), 200);
    // The stalest keep-alive was the one closed; the others still answer.
    assert!(
        closed_within(&mut held[0], Duration::from_secs(1))
            .await
            .is_some(),
        "the stalest connection gave way"
    );
    for stream in &mut held[1..] {
        assert!(
            kept_alive_and_served(stream).await,
            "a fresher one was kept"
        );
    }
}

#[tokio::test]
async fn sigterm_stops_the_server_promptly_even_with_idle_and_half_open_connections() {
    let app = sqlite_app(|_| {}).await;
    let port = crate::helpers::free_port();
    // Killed when dropped: a failing assertion below leaves no server running.
    let mut server = crate::helpers::Process(
        crate::helpers::server_command(&app, port)
            .env("HEADER_READ_TIMEOUT_SECS", "2")
            .env("RUST_LOG", "error")
            .spawn()
            .expect("start mg-server"),
    );
    let base = format!("http://127.0.0.1:{port}");
    let ready = crate::helpers::healthy_within_10_s(&app.client, &base).await;
    assert!(ready, "mg-server started");
    let _silent = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    let mut half = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    half.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    let status = std::process::Command::new("kill")
        .args(["-TERM", &server.0.id().to_string()])
        .status()
        .expect("kill -TERM");
    assert!(status.success());
    let started = Instant::now();
    loop {
        if let Some(exit) = server.0.try_wait().expect("wait") {
            assert!(exit.success(), "{exit:?}");
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "still running 5 s after SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(TcpStream::connect(("127.0.0.1", port)).await.is_err());
}
