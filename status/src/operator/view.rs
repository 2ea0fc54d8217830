//! The operator view's answer: the components, the checks' incidents, the open notices, the
//! bounds, every form's choices in the page's words, the posted updates to correct and the
//! components' own statuses.

use mg_domain::{
    component_status::ComponentStatus,
    notices::{Impact, NoticeStatus},
    status::COMPONENTS,
};
use mg_platform::time::{now_ms, rfc3339};

use super::{
    bodies::{OpenNotice, OperatorLimits, OperatorView, PostedNotice, PostedUpdate},
    corrections::kept,
    Operator,
};
use crate::{
    notices::StoredNotice,
    operator_limits::{MAX_BODY_CHARS, MAX_OPEN_NOTICES, MAX_TITLE_CHARS, MAX_UPDATES},
    store::{declarations::DeclarationRow, notices::NOTICE_RETENTION_MS, StatusQueries},
};

impl Operator<'_> {
    /// What the operator view needs: who, the components, the checks' incidents, the open
    /// notices, the bounds, the forms' choices, the posted updates and the components' own
    /// statuses.
    /// With the database away the view still answers (its writes are refused with 503 until it is
    /// back), listing no posted update and no component's own status.
    pub async fn view(&self) -> OperatorView {
        let published = self.status.published();
        let summary = published.page_summary();
        let store = self.db.status();
        let stored = store.notices_since(now_ms() - NOTICE_RETENTION_MS).await;
        let settings = store.component_declarations().await;
        if let Some(error) = stored.as_ref().err().or(settings.as_ref().err()) {
            tracing::warn!(%error, "status: the operator view lists no posted update");
        }
        let (stored, settings) = (stored.unwrap_or_default(), settings.unwrap_or_default());
        let components = self.view_components();
        OperatorView {
            operator: self.who.to_owned(),
            component_settings: components
                .iter()
                .map(|(id, _)| {
                    let set = settings.iter().find(|d| &d.component == id);
                    (id.clone(), set.and_then(DeclarationRow::declared))
                })
                .collect(),
            components,
            check_incidents: summary
                .open_incidents
                .iter()
                .chain(&summary.recent_incidents)
                .map(|i| i.id.clone())
                .collect(),
            open_notices: summary
                .notices
                .iter()
                .filter(|n| n.is_open())
                .map(|n| OpenNotice {
                    id: n.id.clone(),
                    kind: n.kind,
                    title: n.title.clone(),
                })
                .collect(),
            limits: OperatorLimits {
                title_chars: MAX_TITLE_CHARS,
                body_chars: MAX_BODY_CHARS,
                updates_per_notice: MAX_UPDATES,
                open_notices: MAX_OPEN_NOTICES,
            },
            incident_statuses: NoticeStatus::INCIDENT
                .iter()
                .map(|s| (*s, s.words().to_owned()))
                .collect(),
            window_statuses: NoticeStatus::MAINTENANCE
                .iter()
                .map(|s| (*s, s.words().to_owned()))
                .collect(),
            impacts: Impact::ALL
                .iter()
                .filter(|i| **i != Impact::Maintenance)
                .map(|i| (*i, i.words().to_owned()))
                .collect(),
            component_statuses: ComponentStatus::ALL
                .iter()
                .filter(|s| **s != ComponentStatus::UnderMaintenance)
                .map(|s| (*s, s.words().to_owned()))
                .collect(),
            posted: stored.iter().map(posted).collect(),
        }
    }

    /// `(id, name)` of the components this deployment has: one it does not check is not offered.
    pub(super) fn view_components(&self) -> Vec<(String, String)> {
        let published = self.status.published();
        let summary = published.page_summary();
        COMPONENTS
            .iter()
            .filter(|(id, _)| !summary.not_configured.iter().any(|n| n == id))
            .map(|(id, name)| ((*id).to_owned(), (*name).to_owned()))
            .collect()
    }
}

/// A stored notice with its updates' texts as posted, and whether each may be deleted.
fn posted((notice, updates): &StoredNotice) -> PostedNotice {
    PostedNotice {
        id: notice.id.clone(),
        kind: notice.kind,
        title: notice.title.clone(),
        updates: updates
            .iter()
            .map(|update| PostedUpdate {
                seq: update.seq,
                status: update.status,
                body: update.body.clone(),
                created_at: rfc3339(update.created_at),
                author: update.author.clone(),
                kept: kept(notice.kind, update),
            })
            .collect(),
    }
}
