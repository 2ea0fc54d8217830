//! The accept loop: hyper-util's HTTP/1 + HTTP/2 builder with a timer, so a client that never
//! finishes its headers or sits idle is closed, and a cap on open connections.
//!
//! axum's `serve` runs hyper without a timer: there, a half-sent header block or an idle
//! keep-alive connection stays open until the client leaves, and connections are bounded only by
//! the open-files limit.

use std::{
    convert::Infallible,
    future::Future,
    io,
    pin::Pin,
    sync::{
        atomic::{AtomicU64, Ordering::Relaxed},
        Arc,
    },
    task::{Context, Poll},
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
    server::{conn::auto, graceful::GracefulShutdown},
};
use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::{TcpListener, TcpStream},
    sync::Semaphore,
    time::Instant,
};
use tower::{Service, ServiceExt};

use crate::network::NetworkConfig;

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
    let idle_timeout = limits.idle_timeout;
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
        let _ = stream.set_nodelay(true);
        let activity = Arc::new(Activity::new());
        let io = TokioIo::new(Watched {
            inner: stream,
            activity: activity.clone(),
        });
        let service = service.clone();
        let hyper_service = hyper::service::service_fn(move |request: Request<Incoming>| {
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
            }
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

/// When a connection last moved a byte either way.
#[derive(Debug)]
struct Activity {
    started: Instant,
    /// Milliseconds after `started`.
    last_ms: AtomicU64,
}

impl Activity {
    fn new() -> Self {
        Self {
            started: Instant::now(),
            last_ms: AtomicU64::new(0),
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

/// A TCP stream that records its activity for the idle timeout.
struct Watched {
    inner: TcpStream,
    activity: Arc<Activity>,
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
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
