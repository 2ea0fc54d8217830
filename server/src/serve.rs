//! The accept loop: hyper-util's HTTP/1 + HTTP/2 builder with a timer, so a client that never
//! finishes its headers, never sends a byte, or sits idle is closed; a cap on open connections,
//! and a smaller one per client address so one client cannot hold them all.
//!
//! axum's `serve` runs hyper without a timer: there, a half-sent header block or an idle
//! keep-alive connection stays open until the client leaves, and connections are bounded only by
//! the open-files limit.

use std::{
    collections::HashMap,
    convert::Infallible,
    future::Future,
    io,
    pin::Pin,
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering::Relaxed},
        Arc, Mutex, PoisonError,
    },
    task::{Context, Poll},
    time::Duration,
};

use axum::{
    body::{Body, Bytes},
    extract::{ConnectInfo, Request},
    response::Response,
};
use hyper::body::Incoming;
use hyper_util::{
    rt::{TokioExecutor, TokioIo, TokioTimer},
    server::{conn::auto, graceful::GracefulShutdown},
};
use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::{TcpListener, TcpStream},
    sync::Semaphore,
    time::Instant,
};
use tower::{Service, ServiceExt};

use crate::{
    config::network::NetworkConfig, edge::own_errors::OwnErrors, forwarded::TrustedProxies,
    rate_limit::ClientKey,
};

/// After a stop signal, in-flight requests get this long (a request's own limit, and some) before
/// the remaining connections are dropped.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(15);
/// The most a connection buffers (HTTP/1) or accepts as a header list (HTTP/2): with the request
/// body limit at 16 KiB, 32 KiB of head is plenty, and `MAX_CONNECTIONS` of them stay bounded.
const MAX_BUF_BYTES: usize = 32 * 1024;
/// Requests one HTTP/2 connection may have in flight at once.
const MAX_STREAMS_PER_CONNECTION: u32 = 64;

/// Serves `service` on `listener` until `shutdown` resolves, then stops accepting, lets in-flight
/// requests finish (closing idle connections at once) and returns.
pub async fn serve<S>(
    listener: TcpListener,
    service: S,
    limits: &NetworkConfig,
    own_errors: Arc<OwnErrors>,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    let mut builder = auto::Builder::new(TokioExecutor::new());
    // A connection's buffer is what a client can make the server hold per connection (hyper's
    // default is 400 KiB): request heads beyond it are refused (431), bodies stream through it.
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_buf_size(MAX_BUF_BYTES);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(MAX_BUF_BYTES as u32)
        .max_concurrent_streams(MAX_STREAMS_PER_CONNECTION);
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let per_client = Arc::new(PerClient::new(
        limits.max_connections_per_client,
        limits.trusted_proxies.clone(),
    ));
    let idle_timeout = limits.idle_timeout;
    let first_byte_timeout = limits.header_read_timeout;
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);

    loop {
        // At the cap, new connections wait in the kernel's listen backlog until one closes.
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: wait rather than spin.
                    if !is_per_connection_error(&error) {
                        tracing::warn!(%error, "accept failed");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Over its own cap, a client's new connection is closed at once: its other connections
        // keep their slots, and nobody else waits for them.
        let Some(client_slot) = PerClient::claim(&per_client, peer.ip()) else {
            tracing::debug!(%peer, "connection refused: this client holds its most connections");
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let activity = Arc::new(Activity::new());
        let calls = Arc::new(AtomicU64::new(0));
        let io = TokioIo::new(Watched {
            inner: stream,
            activity: activity.clone(),
            calls: calls.clone(),
            heads: 0,
            own_errors: own_errors.clone(),
            replacing: None,
        });
        let service = service.clone();
        let hyper_service = hyper::service::service_fn(move |request: Request<Incoming>| {
            calls.fetch_add(1, Relaxed);
            let mut request = request.map(Body::new);
            request.extensions_mut().insert(ConnectInfo(peer));
            service.clone().oneshot(request)
        });
        let connection = graceful.watch(builder.serve_connection(io, hyper_service).into_owned());
        tokio::spawn(async move {
            tokio::select! {
                result = connection => {
                    if let Err(error) = result {
                        tracing::debug!(%peer, error = %error, "connection ended with an error");
                    }
                }
                () = activity.idle_for(idle_timeout) => {
                    tracing::debug!(%peer, "idle connection closed");
                }
                // hyper's header timer starts at a request's first byte: a connection that never
                // sends one would otherwise hold its slot for the whole idle timeout.
                () = activity.silent_for(first_byte_timeout) => {
                    tracing::debug!(%peer, "silent connection closed");
                }
            }
            drop(client_slot);
            drop(permit);
        });
    }

    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("connections still open after the shutdown grace period: dropping them");
    }
    Ok(())
}

/// Errors that concern one connection only (the client went away during the handshake).
fn is_per_connection_error(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Open connections per client address (an IPv6 /64), each at most `limit`. The map holds only
/// clients with an open connection, so it is bounded by the connection cap.
#[derive(Debug)]
struct PerClient {
    limit: usize,
    /// Proxies multiplex many clients over their connections: they count only against the total.
    exempt: TrustedProxies,
    open: Mutex<HashMap<ClientKey, usize>>,
}

/// One connection's place in [`PerClient`], given back when dropped.
struct ClientSlot {
    owner: Arc<PerClient>,
    key: ClientKey,
}

impl PerClient {
    fn new(limit: usize, exempt: TrustedProxies) -> Self {
        Self {
            limit,
            exempt,
            open: Mutex::new(HashMap::new()),
        }
    }

    /// `None` when the client at `ip` holds `limit` connections already; else its slot, which is
    /// `Some(None)` for a trusted proxy (not counted per address).
    fn claim(this: &Arc<Self>, ip: std::net::IpAddr) -> Option<Option<ClientSlot>> {
        if this.exempt.contains(ip) {
            return Some(None);
        }
        let key = ClientKey::from(ip);
        let mut open = this.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(key).or_insert(0);
        if *count >= this.limit {
            return None;
        }
        *count += 1;
        Some(Some(ClientSlot {
            owner: this.clone(),
            key,
        }))
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut open = self
            .owner
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

/// When a connection last moved a byte either way, and whether the client ever sent one.
#[derive(Debug)]
struct Activity {
    started: Instant,
    /// Milliseconds after `started`.
    last_ms: AtomicU64,
    heard: AtomicBool,
}

impl Activity {
    fn new() -> Self {
        Self {
            started: Instant::now(),
            last_ms: AtomicU64::new(0),
            heard: AtomicBool::new(false),
        }
    }

    /// Resolves after `timeout` if the client has not sent a byte by then; never otherwise.
    async fn silent_for(&self, timeout: Duration) {
        tokio::time::sleep_until(self.started + timeout).await;
        if self.heard.load(Relaxed) {
            std::future::pending::<()>().await;
        }
    }

    fn touch(&self) {
        let ms = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_ms.store(ms, Relaxed);
    }

    /// Resolves once no byte has moved for `timeout`.
    async fn idle_for(&self, timeout: Duration) {
        loop {
            let deadline =
                self.started + Duration::from_millis(self.last_ms.load(Relaxed)) + timeout;
            if Instant::now() >= deadline {
                return;
            }
            tokio::time::sleep_until(deadline).await;
        }
    }
}

/// A TCP stream that records its activity for the idle timeout, and puts the JSON answer in place
/// of hyper's own bare error answers ([`OwnErrors`]).
struct Watched {
    inner: TcpStream,
    activity: Arc<Activity>,
    /// Requests handed to the service on this connection.
    calls: Arc<AtomicU64>,
    /// Answer heads the service's responses have written (an answer is due while fewer than
    /// `calls`): a head written when none is due is hyper's own.
    heads: u64,
    own_errors: Arc<OwnErrors>,
    /// The replacement being written: its bytes, how many are out, and the length hyper wrote.
    replacing: Option<(Bytes, usize, usize)>,
}

impl Watched {
    /// Looks at what hyper is about to write: the head of a due answer is counted, hyper's own
    /// error head becomes the replacement to write instead.
    fn inspect(&mut self, written: &[u8]) {
        if !written.starts_with(b"HTTP/1.") {
            return;
        }
        if self.heads < self.calls.load(Relaxed) {
            self.heads += 1;
        } else if let Some(replacement) = self.own_errors.replacement(written) {
            self.replacing = Some((replacement, 0, written.len()));
        }
    }

    /// Writes what is left of the replacement; `Ready(Ok(n))` with hyper's length once all is out.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        while let Some((bytes, done, original)) = &mut self.replacing {
            if *done == bytes.len() {
                let original = *original;
                self.replacing = None;
                return Poll::Ready(Ok(original));
            }
            match Pin::new(&mut self.inner).poll_write(cx, &bytes[*done..]) {
                Poll::Ready(Ok(0)) => {
                    return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
                }
                Poll::Ready(Ok(n)) => {
                    *done += n;
                    self.activity.touch();
                }
                other => return other,
            }
        }
        Poll::Ready(Ok(0))
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.heard.store(true, Relaxed);
            self.activity.touch();
        }
        result
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.replacing.is_none() {
            self.inspect(buf);
        }
        if self.replacing.is_some() {
            return self.drain(cx);
        }
        let result = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(result, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        result
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        if self.replacing.is_none() {
            match bufs.iter().find(|slice| !slice.is_empty()) {
                // A head and its body in one call: only a head alone can be hyper's own answer.
                Some(first) if bufs.iter().filter(|slice| !slice.is_empty()).count() == 1 => {
                    let first: &[u8] = first;
                    let first = first.to_vec();
                    self.inspect(&first);
                }
                Some(first) => {
                    let first: &[u8] = first;
                    if first.starts_with(b"HTTP/1.") && self.heads < self.calls.load(Relaxed) {
                        self.heads += 1;
                    }
                }
                None => {}
            }
        }
        if self.replacing.is_some() {
            return self.drain(cx);
        }
        let result = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(result, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        result
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.replacing.is_some() {
            if let Poll::Ready(Err(error)) = self.drain(cx) {
                return Poll::Ready(Err(error));
            }
            if self.replacing.is_some() {
                return Poll::Pending;
            }
        }
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.replacing.is_some() {
            if let Poll::Ready(Err(error)) = self.drain(cx) {
                return Poll::Ready(Err(error));
            }
            if self.replacing.is_some() {
                return Poll::Pending;
            }
        }
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
