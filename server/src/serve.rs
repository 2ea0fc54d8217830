//! The accept loop: hyper-util's HTTP/1 + HTTP/2 builder with a timer, so a client that never
//! finishes its headers, never sends a byte, or sits idle is closed, and no connection lives past
//! its maximum age; a cap on open connections, and smaller ones per client address and per client
//! network so one client, or one block of addresses, cannot hold them all; at the cap, the
//! connection doing least gives way to a newcomer.
//!
//! axum's `serve` runs hyper without a timer: there, a half-sent header block or an idle
//! keep-alive connection stays open until the client leaves, and connections are bounded only by
//! the open-files limit.

mod eviction;
mod progress;
mod slots;
mod watched;

use std::{
    convert::Infallible,
    future::Future,
    io,
    pin::pin,
    sync::{
        atomic::{AtomicU64, Ordering::Relaxed},
        Arc,
    },
    time::Duration,
};

use axum::{
    body::Body,
    extract::{ConnectInfo, Request},
    response::Response,
};
use hyper::body::Incoming;
use hyper_util::{
    rt::{TokioExecutor, TokioIo, TokioTimer},
    server::conn::auto,
};
use tokio::{
    net::TcpListener,
    sync::{watch, Semaphore},
};
use tower::{Service, ServiceExt};

use self::{
    eviction::Open,
    progress::{Progress, Progressing},
    slots::Slots,
    watched::Watched,
};
use crate::{config::network::NetworkConfig, edge::own_errors::OwnErrors};

/// A connection being closed (idle, at its maximum age, or the server stopping) gets this long for
/// the requests it carries (a request's own limit, and some) before it is dropped; a client that
/// never lets a graceful close finish (an HTTP/2 client that never answers the closing PING) is
/// dropped then too.
const CLOSE_GRACE: Duration = Duration::from_secs(15);
/// The most a connection buffers (HTTP/1) or accepts as a header list (HTTP/2): 32 KiB of head is
/// plenty (a body streams past it, up to its own cap), and `MAX_CONNECTIONS` of them stay bounded.
const MAX_BUF_BYTES: usize = 32 * 1024;
/// Connections accepted beyond the cap, each waiting for the slot an evicted one gives up.
const WAITING_FOR_A_SLOT: usize = 64;
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
    // A semaphore holds at most `MAX_PERMITS` (2^61 on 64 bits): far above any open-files limit.
    let permits = Arc::new(Semaphore::new(
        limits.max_connections.min(Semaphore::MAX_PERMITS),
    ));
    let slots = Arc::new(Slots::new(
        limits.max_connections_per_client,
        limits.max_connections_per_network,
        limits.trusted_proxies.clone(),
    ));
    let open = Arc::new(Open::default());
    let admissions = Arc::new(Semaphore::new(
        limits
            .max_connections
            .saturating_add(WAITING_FOR_A_SLOT)
            .min(Semaphore::MAX_PERMITS),
    ));
    let idle_timeout = limits.idle_timeout;
    let max_age = limits.max_connection_age;
    let first_byte_timeout = limits.header_read_timeout;
    // Every connection holds a receiver: the stop is sent through it, and the sender sees when
    // the last connection has closed.
    let (stop, stopping) = watch::channel(false);
    let mut shutdown = pin!(shutdown);

    loop {
        // Sockets accepted at once: the cap, and a few more waiting for a slot while the
        // connection doing least gives it up (eviction.rs); past that, new connections wait in the
        // kernel's listen backlog.
        let admitted = tokio::select! {
            admitted = admissions.clone().acquire_owned() => match admitted {
                Ok(admitted) => admitted,
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
        // Over its own cap or its network's, a client's new connection is closed at once: its
        // other connections keep their slots, and nobody else waits for them.
        let Some(slot) = Slots::claim(&slots, peer.ip()) else {
            tracing::debug!(%peer, "connection refused: its client or network holds its most");
            drop(stream);
            continue;
        };
        // At the cap, the connection doing least is asked to close, and this one takes its slot
        // (with every handler at work, the first to close).
        let permit = match permits.clone().try_acquire_owned() {
            Ok(permit) => Some(permit),
            Err(_) => {
                open.evict_idlest();
                None
            }
        };
        let (permits, open) = (permits.clone(), open.clone());
        let _ = stream.set_nodelay(true);
        let progress = Arc::new(Progress::new());
        let calls = Arc::new(AtomicU64::new(0));
        let io = TokioIo::new(Watched::new(
            stream,
            progress.clone(),
            calls.clone(),
            own_errors.clone(),
        ));
        let service = service.clone();
        let requests = progress.clone();
        let hyper_service = hyper::service::service_fn(move |request: Request<Incoming>| {
            calls.fetch_add(1, Relaxed);
            let answering = requests.answering();
            let progress = requests.clone();
            let mut request =
                request.map(|body| Body::new(Progressing::new(body, progress.clone())));
            request.extensions_mut().insert(ConnectInfo(peer));
            let answer = service.clone().oneshot(request);
            async move {
                let response = answer.await;
                drop(answering);
                response.map(|response| response.map(|body| Progressing::new(body, progress)))
            }
        });
        let connection = builder.serve_connection(io, hyper_service).into_owned();
        let mut stopping = stopping.clone();
        tokio::spawn(async move {
            let permit = match permit {
                Some(permit) => permit,
                None => tokio::select! {
                    permit = permits.acquire_owned() => match permit {
                        Ok(permit) => permit,
                        Err(_) => return,
                    },
                    _ = stopping.wait_for(|stop| *stop) => return,
                },
            };
            let registered = Open::register(&open, progress.clone());
            let mut connection = pin!(connection);
            let closing = tokio::select! {
                result = connection.as_mut() => {
                    if let Err(error) = result {
                        tracing::debug!(%peer, error = %error, "connection ended with an error");
                    }
                    None
                }
                // Only requests count: an HTTP/2 client's PINGs and SETTINGS do not keep it open.
                () = progress.idle_for(idle_timeout) => Some("idle"),
                // hyper's header timer starts at a request's first byte: a connection that never
                // sends one would otherwise hold its slot for the whole idle timeout.
                () = progress.silent_for(first_byte_timeout) => Some("silent"),
                // However busy, a connection is closed at its maximum age (and the client opens
                // another), so no client holds one slot, or one instance, forever.
                () = tokio::time::sleep(max_age) => Some("at its maximum age"),
                () = progress.asked_to_give_way() => Some("giving way to a new client at the cap"),
                _ = stopping.wait_for(|stop| *stop) => Some("server stopping"),
            };
            if let Some(why) = closing {
                tracing::debug!(%peer, why, "closing connection");
                // HTTP/2: GOAWAY, then the requests in flight finish; HTTP/1: closed at once when
                // idle, else once the answer being written is out.
                connection.as_mut().graceful_shutdown();
                match tokio::time::timeout(CLOSE_GRACE, connection).await {
                    Ok(Ok(())) => {}
                    Ok(Err(error)) => {
                        tracing::debug!(%peer, error = %error, "connection ended with an error");
                    }
                    Err(_) => tracing::debug!(%peer, "connection dropped after the close grace"),
                }
            }
            drop(registered);
            drop(slot);
            drop(permit);
            drop(admitted);
            drop(stopping);
        });
    }

    drop(listener);
    stop.send_replace(true);
    drop(stopping);
    if tokio::time::timeout(CLOSE_GRACE, stop.closed())
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
