//! Operators correcting what they posted: edit the text of an update of an incident or window, or
//! delete an update. Like Statuspage, a correction changes what the page, the feed and the
//! Statuspage JSON show from the next publish (at once on this instance), and sends no webhook:
//! subscribers heard the update when it was posted. The log keeps who changed what, when, and the
//! text it replaced (`store::revisions`).
//!
//! What stays: an update's status and declared component status (post a new update to change
//! them), a notice's first update (it names the notice: edit it instead), the update that resolved
//! or completed it (deleting it would reopen what the page told people is over), and the updates
//! the clock added at a window's start and end.

use mg_domain::notices::{Notice, NoticeKind};
use mg_platform::{error::AppError, time::now_ms};

use super::{
    bodies::EditUpdate,
    fields::{invalid, text},
    Operator,
};
use crate::{
    operator_limits::{MAX_BODY_CHARS, MAX_REVISIONS},
    store::{
        notices::UpdateRow,
        revisions::{NewRevision, Revised},
        window_clock::CLOCK_AUTHOR,
        StatusQueries,
    },
};

/// Why `update` (of a notice of `kind`) cannot be deleted, in the page's words; `None` when it can.
pub(super) fn kept(kind: NoticeKind, update: &UpdateRow) -> Option<String> {
    let notice = match kind {
        NoticeKind::Incident => "An incident",
        NoticeKind::Maintenance => "A maintenance window",
    };
    if update.seq == 1 {
        Some(format!("{notice} keeps its first update; edit it instead."))
    } else if update.status.is_final() {
        Some(format!(
            "{notice} keeps the update that ended it; edit it instead."
        ))
    } else if update.author == CLOCK_AUTHOR {
        Some(
            "The updates the clock added at the window's start and end stay; edit them instead."
                .to_owned(),
        )
    } else {
        None
    }
}

impl Operator<'_> {
    /// Replaces the text of the update `seq` of the notice `id` of `kind`; the notice as the page
    /// shows it now. The text is checked as a posted one is.
    pub async fn edit_update(
        &self,
        id: &str,
        kind: NoticeKind,
        seq: i64,
        body: EditUpdate,
    ) -> Result<Notice, AppError> {
        let markdown = text(&body.body, "The update", MAX_BODY_CHARS, true)?;
        let update = self.posted_update(id, kind, seq).await?;
        let now = now_ms();
        if update.body == markdown {
            // Nothing to correct: nothing is stored or logged.
            return self.answer(id, now).await;
        }
        self.revise(id, kind, seq, Some(&markdown), now).await
    }

    /// Deletes the update `seq` of the notice `id` of `kind` from its timeline; the notice as the
    /// page shows it now (its status and declared component status are its latest remaining
    /// update's).
    pub async fn delete_update(
        &self,
        id: &str,
        kind: NoticeKind,
        seq: i64,
    ) -> Result<Notice, AppError> {
        let update = self.posted_update(id, kind, seq).await?;
        if let Some(reason) = kept(kind, &update) {
            return Err(invalid(&reason));
        }
        self.revise(id, kind, seq, None, now_ms()).await
    }

    /// The update as it shows now; 404 when the notice or the update is not there (or deleted).
    async fn posted_update(
        &self,
        id: &str,
        kind: NoticeKind,
        seq: i64,
    ) -> Result<UpdateRow, AppError> {
        let found = self.db.status().find_notice(id).await?;
        found
            .filter(|(notice, _)| notice.kind == kind)
            .and_then(|(_, updates)| updates.into_iter().find(|u| u.seq == seq))
            .ok_or(AppError::NotFound)
    }

    /// Counts the write, stores the correction, logs it and answers the notice.
    async fn revise(
        &self,
        id: &str,
        kind: NoticeKind,
        seq: i64,
        body: Option<&str>,
        now: i64,
    ) -> Result<Notice, AppError> {
        self.take_write(now)?;
        let revision = NewRevision {
            id,
            kind,
            seq,
            body,
            at: now,
            author: self.who,
        };
        match self
            .db
            .status()
            .revise_update(&revision, MAX_REVISIONS)
            .await?
        {
            Revised::Stored(_) => {}
            Revised::Capped => {
                return Err(invalid(&format!(
                    "This update has been corrected {MAX_REVISIONS} times (the most): post a new \
                     update that says what changed, or delete this one."
                )))
            }
            Revised::Gone => return Err(invalid(
                "The update was deleted meanwhile, or corrected at the same moment: look again.",
            )),
        }
        let verb = if body.is_some() { "edit" } else { "delete" };
        self.logged(&format!("{verb} {kind} update {seq}"), id);
        self.answer(id, now).await
    }
}
