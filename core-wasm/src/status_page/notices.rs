//! The operators' posts (`/status/notices/list`, HTML the server makes once a round) in the status
//! page's one schedule of requests: asked with the first round, then with the round after every
//! [`NOTICES_EVERY_MS`] (with the server's `ETag`: a 304 while nothing changed), and with the round an
//! operator's post makes due at once ([`super::StatusPageMachine::posted`]). No other timer asks.

/// Posts change rarely: asked every two minutes, and after a post.
pub const NOTICES_EVERY_MS: u64 = 120_000;
/// The path of the fragment the page inserts.
pub const NOTICES_PATH: &str = "/status/notices/list";

/// When the posts are asked next, and what the last answer gave.
#[derive(Debug, Clone, Default)]
pub struct Notices {
    /// `None`: due with the next round.
    due_at: Option<u64>,
    /// The round that asked last; only its answer counts.
    asked_in: u32,
    etag: Option<String>,
    html: Option<String>,
    failed: bool,
}

impl Notices {
    /// Whether the round `round` at `now_ms` asks for the posts; if so, it is their next ask.
    pub fn plan(&mut self, round: u32, now_ms: u64) -> bool {
        if self.due_at.is_some_and(|at| now_ms < at) {
            return false;
        }
        self.due_at = Some(now_ms.saturating_add(NOTICES_EVERY_MS));
        self.asked_in = round;
        true
    }

    /// The `ETag` to send with the ask.
    pub fn if_none_match(&self) -> Option<String> {
        self.etag.clone()
    }

    /// Asked at once, with the next round (after an operator's post).
    pub fn ask_now(&mut self) {
        self.due_at = None;
    }

    /// The answer of the ask made in `round`: `status` (`None`: no answer), its `ETag` and text.
    /// Whether what the page shows changed.
    pub fn answer(
        &mut self,
        round: u32,
        status: Option<u16>,
        etag: Option<String>,
        text: Option<String>,
    ) -> bool {
        if round != self.asked_in {
            return false;
        }
        match (status, text) {
            (Some(304), _) => std::mem::replace(&mut self.failed, false),
            (Some(200), Some(text)) => {
                self.html = Some(text);
                self.etag = etag.filter(|tag| !tag.is_empty());
                self.failed = false;
                true
            }
            _ => !std::mem::replace(&mut self.failed, true),
        }
    }

    /// The server's HTML, once it came.
    pub fn html(&self) -> Option<&str> {
        self.html.as_deref()
    }

    /// What the card says instead of the posts: while none came, loading or unavailable.
    pub fn message(&self) -> Option<&'static str> {
        match (&self.html, self.failed) {
            (Some(_), _) => None,
            (None, true) => Some("The operators' posts are unavailable right now."),
            (None, false) => Some("Loading posts…"),
        }
    }
}
