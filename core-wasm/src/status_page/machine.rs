//! The status page's machine: when a round is due and what it asks, the answers it takes in, and
//! what it holds of them.

use serde::Serialize;

use super::{
    compose::{live_values, status_view, Known},
    notices::{Notices, NOTICES_PATH},
    url::page_path,
    view::{LiveValue, StatusView},
    wire::{merge, Held, PageAnswer, Summary},
};
use crate::api::{self, ErrorBody};
use crate::health::{
    HealthValue, API_CHECK_FAILED, DB_CHECK_FAILED, POLL_INTERVAL_MS, QUEUE_CHECK_FAILED,
};
use mg_domain::calendar::DAY_MS;

/// The requests of one round; each result is reported back with `round`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "status", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub struct RoundPlan {
    pub round: u32,
    pub check_api: bool,
    pub check_db: bool,
    /// GET this URL (the Telekinesis queue); a 2xx answer is healthy.
    pub queue_url: Option<String>,
    /// GET this path of the API for the status page; `None`: no API (ethereal).
    pub status_path: Option<String>,
    /// Send as `If-None-Match` with the status request.
    pub if_none_match: Option<String>,
    /// GET this path for the operators' posts (HTML), with `notices_if_none_match`; `None`: not
    /// this round.
    pub notices_path: Option<String>,
    pub notices_if_none_match: Option<String>,
}

#[derive(Debug, Clone)]
pub struct StatusPageMachine {
    ethereal: bool,
    queue_url: Option<String>,
    api: HealthValue,
    db: HealthValue,
    queue: HealthValue,
    pub(super) round: u32,
    next_round_at: Option<u64>,
    /// The clock of the last round, for "today" on the bars.
    now_ms: u64,
    summary: Option<Summary>,
    pub(super) history: Vec<Held>,
    etag: Option<String>,
    /// The last status request's failure, cleared by a good answer.
    error: Option<String>,
    /// Bumped whenever the live values may have changed, so the page re-reads them only then.
    version: u32,
    /// Bumped whenever [`StatusPageMachine::view`] may have changed.
    view_version: u32,
    notices: Notices,
    /// The digest of the operators' posts the last page answer gave (`Summary::notices_digest`):
    /// when an answer gives another (a post, a correction, a window starting), the posts are asked
    /// at once.
    notices_seen: Option<String>,
}

impl StatusPageMachine {
    /// `ethereal` (and not forced): no API, so no api, db or status requests; `queue_url`: the
    /// Telekinesis queue's address, if the deployment names one.
    pub fn new(ethereal: bool, force: bool, queue_url: Option<String>) -> Self {
        let ethereal = ethereal && !force;
        // The API's own checks (api and db) are not made without an API.
        let server_check = if ethereal {
            HealthValue::NotApplicable
        } else {
            HealthValue::Unknown
        };
        Self {
            ethereal,
            queue_url: queue_url.filter(|url| !url.trim().is_empty()),
            api: server_check,
            db: server_check,
            queue: HealthValue::Unknown,
            round: 0,
            next_round_at: None,
            now_ms: 0,
            summary: None,
            history: Vec::new(),
            etag: None,
            error: None,
            version: 0,
            view_version: 0,
            notices: Notices::default(),
            notices_seen: None,
        }
    }

    /// Changes whenever [`StatusPageMachine::live`] may give something new.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// Changes whenever [`StatusPageMachine::view`] may give something new: only with the server's
    /// answers and at midnight (UTC), not with each live check.
    pub fn view_version(&self) -> u32 {
        self.view_version
    }

    /// When the hook must call [`StatusPageMachine::poll`] again.
    pub fn next_deadline(&self) -> Option<u64> {
        self.next_round_at
    }

    fn changed(&mut self) {
        self.version = self.version.wrapping_add(1);
    }

    /// Starts a round if one is due (the first call always is); `None` when it is not time yet.
    pub fn poll(&mut self, now_ms: u64) -> Option<RoundPlan> {
        if self.next_round_at.is_some_and(|at| now_ms < at) {
            return None;
        }
        self.round = self.round.wrapping_add(1).max(1);
        self.next_round_at = Some(now_ms.saturating_add(POLL_INTERVAL_MS));
        if self.now_ms / DAY_MS as u64 != now_ms / DAY_MS as u64 {
            self.view_version = self.view_version.wrapping_add(1);
        }
        self.now_ms = now_ms;
        let since = self
            .summary
            .as_ref()
            .map(|summary| summary.updated_at.as_str())
            .filter(|at| !at.is_empty());
        let status_path = (!self.ethereal).then(|| page_path(since));
        let notices = !self.ethereal && self.notices.plan(self.round, now_ms);
        Some(RoundPlan {
            notices_path: notices.then(|| NOTICES_PATH.to_owned()),
            notices_if_none_match: self.notices.if_none_match().filter(|_| notices),
            round: self.round,
            check_api: !self.ethereal,
            check_db: !self.ethereal,
            queue_url: self.queue_url.clone(),
            if_none_match: status_path.as_ref().and(self.etag.clone()),
            status_path,
        })
    }

    /// An operator posted at `now_ms`: the next round (with the posts) is due at once.
    pub fn posted(&mut self, now_ms: u64) {
        self.notices.ask_now();
        self.next_round_at = Some(now_ms);
    }

    /// The posts' answer to the ask of `round`: `status` (`None`: no answer), `ETag` and text.
    pub fn notices_result(
        &mut self,
        round: u32,
        status: Option<u16>,
        etag: Option<String>,
        text: Option<String>,
    ) {
        if self.notices.answer(round, status, etag, text) {
            self.view_version = self.view_version.wrapping_add(1);
        }
    }

    fn current(&self, round: u32) -> bool {
        round == self.round && round != 0
    }

    /// `/health` answered `status` (`None`: no answer). Returns the console message to log.
    pub fn api_result(&mut self, round: u32, status: Option<u16>) -> Option<&'static str> {
        let health = HealthValue::from_status(status);
        self.checked(round, !self.ethereal, health, |machine| &mut machine.api)
            .then_some(API_CHECK_FAILED)
    }

    /// `/db-health` answered `status` (`None`: no answer). Returns the console message to log.
    pub fn db_result(&mut self, round: u32, status: Option<u16>) -> Option<&'static str> {
        let health = HealthValue::from_status(status);
        self.checked(round, !self.ethereal, health, |machine| &mut machine.db)
            .then_some(DB_CHECK_FAILED)
    }

    /// The queue URL answered `status` (`None`: no answer, or the URL cannot be fetched): 2xx is
    /// healthy, anything else unhealthy. Returns the console message to log.
    pub fn queue_result(&mut self, round: u32, status: Option<u16>) -> Option<&'static str> {
        let health = if status.is_some_and(api::is_success) {
            HealthValue::Healthy
        } else {
            HealthValue::Unhealthy
        };
        let made = self.queue_url.is_some();
        self.checked(round, made, health, |machine| &mut machine.queue)
            .then_some(QUEUE_CHECK_FAILED)
    }

    /// Stores a check's `health` in the value `slot` picks, if the check is of this round and one
    /// this machine `made`. True when it stored an unhealthy value: the console then says why.
    fn checked(
        &mut self,
        round: u32,
        made: bool,
        health: HealthValue,
        slot: fn(&mut Self) -> &mut HealthValue,
    ) -> bool {
        if !self.current(round) || !made {
            return false;
        }
        *slot(self) = health;
        self.changed();
        health == HealthValue::Unhealthy
    }

    /// The status request's answer: `status` (`None`: no answer), its `ETag`, and the body read
    /// as a page (`None` when it was not one) or as an error body.
    pub fn status_result(
        &mut self,
        round: u32,
        status: Option<u16>,
        etag: Option<String>,
        page: Option<PageAnswer>,
        error: Option<ErrorBody>,
    ) {
        if !self.current(round) || self.ethereal {
            return;
        }
        match (status, page) {
            // Not modified: what the machine holds is current, and nothing is shown anew
            // unless an earlier failure was.
            (Some(304), _) => {
                if self.error.take().is_none() {
                    return;
                }
            }
            (Some(code), Some(page)) if api::is_success(code) => {
                self.merge(page);
                self.etag = etag.filter(|tag| !tag.is_empty());
                self.error = None;
                // The posts changed since the last answer: their fragment now, not in two minutes,
                // so the page never shows new status words beside old posts for long.
                let digest = self
                    .summary
                    .as_ref()
                    .map(|summary| summary.notices_digest.clone())
                    .unwrap_or_default();
                if self
                    .notices_seen
                    .replace(digest.clone())
                    .is_some_and(|seen| seen != digest)
                {
                    self.notices.ask_now();
                    self.next_round_at = Some(self.now_ms);
                }
            }
            (Some(code), None) if api::is_success(code) => {
                self.error = Some(api::SERVER_ERROR.to_owned());
            }
            _ => self.error = api::error_message(status, error.as_ref()),
        }
        self.view_version = self.view_version.wrapping_add(1);
    }

    fn merge(&mut self, page: PageAnswer) {
        let incremental = page.since.is_some() && self.summary.is_some();
        merge(
            &mut self.history,
            page.history,
            incremental,
            &page.summary.components,
        );
        self.summary = Some(page.summary);
    }

    /// The live values `(api, db, queue)`.
    pub fn health(&self) -> (HealthValue, HealthValue, HealthValue) {
        (self.api, self.db, self.queue)
    }

    /// Each card's live value and its word.
    pub fn live(&self) -> Vec<LiveValue> {
        live_values(&self.known(), [self.api, self.db, self.queue])
    }

    /// What the page shows now, besides the live values.
    pub fn view(&self) -> StatusView {
        status_view(&self.known())
    }

    fn known(&self) -> Known<'_> {
        Known {
            ethereal: self.ethereal,
            queue_known: self.queue_url.is_some(),
            summary: self.summary.as_ref(),
            history: &self.history,
            error: self.error.as_deref(),
            now_ms: self.now_ms,
            notices: &self.notices,
        }
    }
}
