//! The TCP stream as hyper sees it: it notes the client's first byte (for the connection that
//! never sends one), and puts the JSON answer in place of hyper's own bare error answers
//! ([`OwnErrors`]).

use std::{
    io,
    pin::Pin,
    sync::{
        atomic::{AtomicU64, Ordering::Relaxed},
        Arc,
    },
    task::{ready, Context, Poll},
};

use axum::body::Bytes;
use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::TcpStream,
};

use super::progress::Progress;
use crate::edge::own_errors::OwnErrors;

/// A TCP stream that notes whether the client ever sent a byte, and puts the JSON answer in place
/// of hyper's own bare error answers ([`OwnErrors`]). Bytes moving are not progress for the idle
/// timeout (`progress.rs` says why).
pub(super) struct Watched {
    inner: TcpStream,
    progress: Arc<Progress>,
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
    pub(super) fn new(
        inner: TcpStream,
        progress: Arc<Progress>,
        calls: Arc<AtomicU64>,
        own_errors: Arc<OwnErrors>,
    ) -> Self {
        Self {
            inner,
            progress,
            calls,
            heads: 0,
            own_errors,
            replacing: None,
        }
    }

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
                Poll::Ready(Ok(n)) => *done += n,
                other => return other,
            }
        }
        Poll::Ready(Ok(0))
    }

    /// Finishes writing the replacement under way, if any: `Ready(Ok(()))` once none is left, so
    /// that a flush or a shutdown comes after all of it.
    fn finish_replacing(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.drain(cx) {
            Poll::Ready(Err(error)) => Poll::Ready(Err(error)),
            _ if self.replacing.is_some() => Poll::Pending,
            _ => Poll::Ready(Ok(())),
        }
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
            self.progress.heard();
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
        Pin::new(&mut self.inner).poll_write(cx, buf)
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
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.finish_replacing(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.finish_replacing(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
