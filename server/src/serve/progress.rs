//! When a connection last made progress on a request, for the idle timeout.
//!
//! Progress is what only a request makes: a request head handed to the service, a handler at
//! work, a request body's data arriving, a response's body being written. Bytes alone are not:
//! an HTTP/2 client can send PING, SETTINGS or WINDOW_UPDATE frames (and the server answers the
//! pings) forever without asking for anything, and a timer reset by every byte would never fire.

use std::{
    pin::Pin,
    sync::{
        atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed},
        Arc,
    },
    task::{Context, Poll},
    time::Duration,
};

use axum::body::Bytes;
use http_body::{Body, Frame, SizeHint};
use tokio::{sync::Notify, time::Instant};

/// One connection's progress.
#[derive(Debug)]
pub(super) struct Progress {
    started: Instant,
    /// Milliseconds after `started`.
    last_ms: AtomicU64,
    /// Whether the client ever sent a byte (any byte: this is for the connection that sends none).
    heard: AtomicBool,
    /// Requests whose handler is still working on the answer (bounded by the request time limit).
    answering: AtomicUsize,
    /// Asked to close for a newcomer at the connection cap ([`Self::give_way`]).
    giving_way: AtomicBool,
    give_way: Notify,
}

impl Progress {
    pub(super) fn new() -> Self {
        Self {
            started: Instant::now(),
            last_ms: AtomicU64::new(0),
            heard: AtomicBool::new(false),
            answering: AtomicUsize::new(0),
            giving_way: AtomicBool::new(false),
            give_way: Notify::new(),
        }
    }

    /// Since when no request of this connection made progress (milliseconds after a common
    /// origin, the connection's start and its last progress), or `None` while a handler is at
    /// work or it was asked to give way already: what the eviction at the cap compares.
    pub(super) fn idle_since(&self) -> Option<Instant> {
        if self.answering.load(Relaxed) > 0 || self.giving_way.load(Relaxed) {
            return None;
        }
        self.started
            .checked_add(Duration::from_millis(self.last_ms.load(Relaxed)))
    }

    /// Asks the connection to close gracefully for a newcomer.
    pub(super) fn give_way(&self) {
        self.giving_way.store(true, Relaxed);
        self.give_way.notify_one();
    }

    /// Resolves once the connection was asked to give way.
    pub(super) async fn asked_to_give_way(&self) {
        self.give_way.notified().await;
    }

    /// The client sent a byte.
    pub(super) fn heard(&self) {
        self.heard.store(true, Relaxed);
    }

    fn touch(&self) {
        let ms = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_ms.store(ms, Relaxed);
    }

    /// Resolves after `timeout` if the client has not sent a byte by then; never otherwise.
    pub(super) async fn silent_for(&self, timeout: Duration) {
        sleep_until(self.started.checked_add(timeout)).await;
        if self.heard.load(Relaxed) {
            std::future::pending::<()>().await;
        }
    }

    /// Resolves once no request has made progress for `timeout` (from the connection's start
    /// when none ever came).
    pub(super) async fn idle_for(&self, timeout: Duration) {
        loop {
            // A handler at work is progress, however long it takes (the request time limit ends it).
            if self.answering.load(Relaxed) > 0 {
                self.touch();
            }
            let deadline = self
                .started
                .checked_add(Duration::from_millis(self.last_ms.load(Relaxed)))
                .and_then(|last| last.checked_add(timeout));
            if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                return;
            }
            sleep_until(deadline).await;
        }
    }

    /// A request head arrived: progress now, and the handler's work counts as progress until
    /// the returned guard is dropped (the answer is ready, or the request was given up).
    pub(super) fn answering(self: &Arc<Self>) -> Answering {
        self.touch();
        self.answering.fetch_add(1, Relaxed);
        Answering(self.clone())
    }
}

/// Sleeps until `deadline`; forever when it is past what a clock can say (a timeout of years).
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// A handler at work on a request of the connection; see [`Progress::answering`].
pub(super) struct Answering(Arc<Progress>);

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.touch();
        self.0.answering.fetch_sub(1, Relaxed);
    }
}

/// A request or response body whose frames count as its connection's progress: a request body's
/// data arriving, a response body's data taken to be written (taken only as fast as the client
/// reads, so a client that stops reading stops the progress).
pub(super) struct Progressing<B> {
    inner: B,
    progress: Arc<Progress>,
}

impl<B> Progressing<B> {
    pub(super) fn new(inner: B, progress: Arc<Progress>) -> Self {
        Self { inner, progress }
    }
}

impl<B> Body for Progressing<B>
where
    B: Body<Data = Bytes> + Unpin,
{
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if let Poll::Ready(Some(Ok(_)) | None) = &polled {
            self.progress.touch();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn only_progress_moves_the_idle_deadline_and_a_working_handler_is_progress() {
        let progress = Arc::new(Progress::new());
        let idle = Duration::from_millis(200);
        // Nothing ever came: idle from the start, however much the client sends.
        progress.heard();
        tokio::time::timeout(Duration::from_secs(2), progress.idle_for(idle))
            .await
            .expect("idle after 200 ms");
        assert!(progress.started.elapsed() >= idle);

        let answering = progress.answering();
        // A handler at work for longer than the timeout keeps the connection busy.
        assert!(tokio::time::timeout(idle * 3, progress.idle_for(idle))
            .await
            .is_err());
        let answered = Instant::now();
        drop(answering);
        tokio::time::timeout(Duration::from_secs(2), progress.idle_for(idle))
            .await
            .expect("idle again once the answer is out");
        assert!(answered.elapsed() >= idle);
    }
}
