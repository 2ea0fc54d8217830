//! How long a connection may live (`server/src/serve.rs`): only requests keep it from the idle
//! timeout, so an HTTP/2 client that sends nothing but PING frames is closed with GOAWAY; and a
//! busy connection is closed at its maximum age. The HTTP/2 client here writes its frames by hand
//! (prior-knowledge cleartext HTTP/2, as `h2c` clients speak it), so each frame sent is exactly
//! what the test says.

use std::{
    ops::Range,
    sync::Arc,
    time::{Duration, Instant},
};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{tcp::OwnedWriteHalf, TcpStream},
    sync::{mpsc, Mutex},
};

use crate::{edge::sqlite_app, helpers::TestApp};

const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
const HEADERS: u8 = 0x1;
const SETTINGS: u8 = 0x4;
const PING: u8 = 0x6;
const GOAWAY: u8 = 0x7;
const ACK: u8 = 0x1;
const END_STREAM: u8 = 0x1;
const END_HEADERS: u8 = 0x4;

fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let length = u32::try_from(payload.len()).expect("a small frame");
    let mut bytes = length.to_be_bytes()[1..].to_vec();
    bytes.extend_from_slice(&[kind, flags]);
    bytes.extend_from_slice(&stream.to_be_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

/// A frame from the server, or the end of the connection.
enum Event {
    Frame {
        kind: u8,
        stream: u32,
        payload: Vec<u8>,
    },
    Closed,
}

/// An HTTP/2 connection whose reader answers the server's PINGs and SETTINGS as any client does
/// (so a graceful close can finish) and hands every frame to the test.
struct H2 {
    writer: Arc<Mutex<OwnedWriteHalf>>,
    events: mpsc::UnboundedReceiver<Event>,
    next_stream: u32,
}

impl H2 {
    async fn connect(app: &TestApp) -> Self {
        let stream = TcpStream::connect(app.address.trim_start_matches("http://"))
            .await
            .expect("connect");
        let (mut reader, writer) = stream.into_split();
        let writer = Arc::new(Mutex::new(writer));
        let (sender, events) = mpsc::unbounded_channel();
        let replies = writer.clone();
        tokio::spawn(async move {
            loop {
                let mut head = [0u8; 9];
                if reader.read_exact(&mut head).await.is_err() {
                    break;
                }
                let length = u32::from_be_bytes([0, head[0], head[1], head[2]]) as usize;
                let (kind, flags) = (head[3], head[4]);
                let stream = u32::from_be_bytes([head[5], head[6], head[7], head[8]]) & 0x7fff_ffff;
                let mut payload = vec![0u8; length];
                if reader.read_exact(&mut payload).await.is_err() {
                    break;
                }
                let reply = match kind {
                    PING if flags & ACK == 0 => Some(frame(PING, ACK, 0, &payload)),
                    SETTINGS if flags & ACK == 0 => Some(frame(SETTINGS, ACK, 0, &[])),
                    _ => None,
                };
                if let Some(reply) = reply {
                    let _ = replies.lock().await.write_all(&reply).await;
                }
                let _ = sender.send(Event::Frame {
                    kind,
                    stream,
                    payload,
                });
            }
            let _ = sender.send(Event::Closed);
        });
        let client = Self {
            writer,
            events,
            next_stream: 1,
        };
        let mut hello = PREFACE.to_vec();
        hello.extend(frame(SETTINGS, 0, 0, &[]));
        client.send(&hello).await;
        client
    }

    async fn send(&self, bytes: &[u8]) {
        // The server may have closed already; what it sent says so.
        let _ = self.writer.lock().await.write_all(bytes).await;
    }

    async fn ping(&self) {
        self.send(&frame(PING, 0, 0, b"12345678")).await;
    }

    /// `GET /health` on a new stream.
    async fn get_health(&mut self) {
        // HPACK: :method GET and :scheme http from the static table; :path and :authority as
        // literals with indexed names, not indexed.
        let mut block = vec![0x82, 0x86, 0x04, 7];
        block.extend_from_slice(b"/health");
        block.extend_from_slice(&[0x01, 1, b'x']);
        let stream = self.next_stream;
        self.next_stream += 2;
        self.send(&frame(HEADERS, END_STREAM | END_HEADERS, stream, &block))
            .await;
    }

    /// For `how_long`, every `every`: a PING, and a request too when `requests`. Returns what came
    /// back in that time; stops early once the connection is closed.
    async fn drive(&mut self, every: Duration, how_long: Duration, requests: bool) -> Seen {
        let started = Instant::now();
        let mut seen = Seen::default();
        let mut ticks = tokio::time::interval(every);
        while seen.closed.is_none() {
            let Some(remaining) = how_long.checked_sub(started.elapsed()) else {
                break;
            };
            tokio::select! {
                _ = ticks.tick() => {
                    self.ping().await;
                    if requests && seen.goaway.is_none() {
                        self.get_health().await;
                        seen.last_request = Some(Instant::now());
                    }
                }
                event = self.events.recv() => match event {
                    Some(Event::Frame { kind: GOAWAY, payload, .. }) => {
                        let code = u32::from_be_bytes(payload[4..8].try_into().expect("8 bytes"));
                        seen.goaway.get_or_insert((Instant::now(), code));
                    }
                    Some(Event::Frame { kind: HEADERS, stream, .. }) if stream % 2 == 1 => {
                        seen.answers += 1;
                    }
                    Some(Event::Frame { .. }) => {}
                    Some(Event::Closed) | None => seen.closed = Some(Instant::now()),
                },
                // The watch's end: a real connection's lifetime is the subject.
                () = tokio::time::sleep(remaining) => break,
            }
        }
        seen
    }
}

#[derive(Default)]
struct Seen {
    /// When the first GOAWAY came, and its error code.
    goaway: Option<(Instant, u32)>,
    /// Response heads received.
    answers: usize,
    last_request: Option<Instant>,
    closed: Option<Instant>,
}

impl Seen {
    /// When the server sent GOAWAY (`when` it should have), which must be graceful (NO_ERROR).
    /// The time of the graceful GOAWAY (NO_ERROR) that came `when`, asserting it came `within`
    /// this span of `since`.
    fn graceful_goaway(&self, when: &str, since: Instant, within: Range<Duration>) -> Instant {
        let (goaway, code) = self.goaway.unwrap_or_else(|| panic!("GOAWAY {when}"));
        assert_eq!(code, 0, "a graceful GOAWAY (NO_ERROR)");
        let after = goaway - since;
        assert!(
            within.contains(&after),
            "GOAWAY {when}: {after:?}, not {within:?}"
        );
        goaway
    }
}

#[tokio::test]
async fn an_http2_connection_that_only_pings_is_closed_gracefully_by_the_idle_timeout() {
    // Before: every byte reset the idle timer, so a PING every 30 s held a connection forever.
    let app = sqlite_app(|config| config.network.idle_timeout = Duration::from_secs(1)).await;
    let mut client = H2::connect(&app).await;
    // Requests every 300 ms keep it open past the idle timeout.
    let busy = client
        .drive(
            Duration::from_millis(300),
            Duration::from_millis(1600),
            true,
        )
        .await;
    assert!(
        busy.goaway.is_none() && busy.closed.is_none(),
        "closed while busy"
    );
    assert!(busy.answers >= 4, "{} answers", busy.answers);
    let last_request = busy.last_request.expect("requests sent");
    // PINGs alone (answered by the server every time) do not.
    let idle = client
        .drive(Duration::from_millis(300), Duration::from_secs(5), false)
        .await;
    let quiet = Duration::from_millis(900)..Duration::from_secs(3);
    let goaway = idle.graceful_goaway("once only PINGs come", last_request, quiet);
    let closed = idle.closed.expect("closed after GOAWAY");
    assert!(closed - goaway < Duration::from_secs(2));
}

#[tokio::test]
async fn an_http2_connection_gets_goaway_at_its_maximum_age_however_busy() {
    let app = sqlite_app(|config| config.network.max_connection_age = Duration::from_secs(2)).await;
    let opened = Instant::now();
    let mut client = H2::connect(&app).await;
    let seen = client
        .drive(Duration::from_millis(300), Duration::from_secs(6), true)
        .await;
    let age = Duration::from_millis(1900)..Duration::from_secs(4);
    seen.graceful_goaway("at the maximum age", opened, age);
    // Requests sent before the GOAWAY were answered, and then the connection closed.
    assert!(seen.answers >= 5, "{} answers", seen.answers);
    seen.closed.expect("closed after GOAWAY");
}

#[tokio::test]
async fn a_busy_http1_connection_is_closed_at_its_maximum_age() {
    let app = sqlite_app(|config| config.network.max_connection_age = Duration::from_secs(1)).await;
    let opened = Instant::now();
    let mut stream = TcpStream::connect(app.address.trim_start_matches("http://"))
        .await
        .expect("connect");
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    let closed = loop {
        assert!(
            opened.elapsed() < Duration::from_secs(4),
            "still open after 4 s"
        );
        if stream
            .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .is_err()
        {
            break opened.elapsed();
        }
        match tokio::time::timeout(Duration::from_secs(2), stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break opened.elapsed(),
            Ok(Ok(n)) => received.extend_from_slice(&buf[..n]),
            Err(_) => panic!("no answer within 2 s"),
        }
        // A real connection's maximum age is the subject: a request every 200 ms until it closes.
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(closed >= Duration::from_millis(900), "closed at {closed:?}");
    let received = String::from_utf8_lossy(&received).to_ascii_lowercase();
    assert!(received.matches("http/1.1 200").count() >= 3, "{received}");
}
