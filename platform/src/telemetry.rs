//! Structured logging through `tracing`, filtered by `RUST_LOG`.
//!
//! No field of a log line, span fields included, is written longer than [`MAX_FIELD_BYTES`]: a
//! request's path, query or headers are the client's text, and a 31 KB path repeated in full by
//! every line of its request turned one request into 60 KB of log. A longer value is cut at a
//! character boundary and says how much was left out.

use std::fmt::{self, Write as _};

use tracing::field::{Field, Visit};
use tracing_subscriber::{
    field::{RecordFields, VisitOutput},
    fmt::format::{DefaultVisitor, FormatFields, Writer},
    EnvFilter,
};

/// The most of one field's value a log line holds (a path, a query, an error...).
pub const MAX_FIELD_BYTES: usize = 512;

/// Installs the global subscriber. Safe to call once per process.
pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,tower_http=info,sqlx=warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .fmt_fields(CappedFields)
        .init();
}

/// `tracing_subscriber`'s default field format, every value cut at [`MAX_FIELD_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct CappedFields;

impl<'writer> FormatFields<'writer> for CappedFields {
    fn format_fields<R: RecordFields>(&self, writer: Writer<'writer>, fields: R) -> fmt::Result {
        let mut visitor = CappedVisitor(DefaultVisitor::new(writer, true));
        fields.record(&mut visitor);
        visitor.0.finish()
    }
}

/// The default visitor, given capped values.
struct CappedVisitor<'a>(DefaultVisitor<'a>);

impl Visit for CappedVisitor<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.record_debug(field, &Capped(value));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        // As the default visitor writes them: the message bare, other text quoted.
        if field.name() == "message" {
            self.record_debug(field, &format_args!("{value}"));
        } else {
            self.record_debug(field, &value);
        }
    }

    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        self.record_debug(field, &format_args!("{}", ErrorChain(value)));
    }
}

/// An error and its sources on one line: `error: cause: cause`.
struct ErrorChain<'a>(&'a (dyn std::error::Error + 'static));

impl fmt::Display for ErrorChain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut source = self.0.source();
        while let Some(cause) = source {
            write!(f, ": {cause}")?;
            source = cause.source();
        }
        Ok(())
    }
}

/// A value written at most [`MAX_FIELD_BYTES`] long, then `…(N more bytes)`.
struct Capped<'a>(&'a dyn fmt::Debug);

impl fmt::Debug for Capped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Limited {
            out: f,
            left: MAX_FIELD_BYTES,
            dropped: 0,
        };
        write!(out, "{:?}", self.0)?;
        let dropped = out.dropped;
        if dropped > 0 {
            write!(f, "…({dropped} more bytes)")?;
        }
        Ok(())
    }
}

/// Passes on the first `left` bytes written to it (cut at a character boundary) and counts the rest.
struct Limited<'a, 'b> {
    out: &'a mut fmt::Formatter<'b>,
    left: usize,
    dropped: usize,
}

impl fmt::Write for Limited<'_, '_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        if text.len() <= self.left {
            self.left -= text.len();
            return self.out.write_str(text);
        }
        let mut end = self.left;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        self.left = 0;
        self.dropped += text.len() - end;
        self.out.write_str(&text[..end])
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// What a subscriber set up like [`init`]'s writes while `log` runs.
    fn lines_of(log: impl FnOnce()) -> Vec<String> {
        let written = Arc::new(Mutex::new(Vec::<u8>::new()));
        let sink = written.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .fmt_fields(CappedFields)
            .with_writer(move || Sink(sink.clone()))
            .finish();
        tracing::subscriber::with_default(subscriber, log);
        let text = String::from_utf8(written.lock().expect("lock").clone()).expect("UTF-8");
        text.lines().map(str::to_owned).collect()
    }

    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("lock").extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_request_line_repeats_at_most_a_few_hundred_bytes_of_a_huge_path() {
        // Before: a 31 KB path was written whole in the request's span on every line of it.
        let path = format!("/{}", "é".repeat(16 * 1024));
        let lines = lines_of(|| {
            let span = tracing::info_span!("request", method = "GET", uri = %path);
            let _entered = span.enter();
            tracing::error!(path = %path, query = "x".repeat(40_000), "response failed");
        });
        assert_eq!(lines.len(), 1, "{lines:?}");
        let line = &lines[0];
        assert!(line.len() < 4 * MAX_FIELD_BYTES, "{} bytes", line.len());
        assert!(line.contains("response failed"), "{line}");
        assert!(line.contains("uri=/éé"), "{line}");
        assert!(line.contains("more bytes)"), "{line}");
        assert_eq!(line.matches("more bytes)").count(), 3, "{line}");
    }

    #[test]
    fn short_values_are_written_as_the_default_format_writes_them() {
        let error = std::io::Error::other("disk on fire");
        let lines = lines_of(|| {
            tracing::warn!(
                count = 3,
                name = "db",
                error = &error as &dyn std::error::Error,
                "ok"
            );
        });
        assert!(
            lines[0].ends_with(r#"ok count=3 name="db" error=disk on fire"#),
            "{lines:?}"
        );
    }

    #[test]
    fn a_cut_never_splits_a_character() {
        let text = "é".repeat(MAX_FIELD_BYTES);
        let written = format!("{:?}", Capped(&format_args!("{text}")));
        let (kept, note) = written.split_once('…').expect("cut");
        assert_eq!(kept.len(), MAX_FIELD_BYTES);
        assert_eq!(note, format!("({} more bytes)", MAX_FIELD_BYTES));
    }
}
