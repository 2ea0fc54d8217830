//! The operators' incidents and maintenance windows: open, schedule and update them.

use mg_domain::{
    calendar::parse_utc_ms,
    component_status::ComponentStatus,
    notices::{Impact, Notice, NoticeKind, NoticeStatus},
};
use mg_platform::{error::AppError, random::random_hex, time::now_ms};

use super::{
    bodies::{OpenIncident, PostUpdate, ScheduleMaintenance},
    fields::{components, invalid, text},
    Operator,
};
use crate::{
    notices::notice_at,
    operator_limits::{
        MAX_BODY_CHARS, MAX_OPEN_NOTICES, MAX_TITLE_CHARS, MAX_UPDATES, MAX_WINDOW_AHEAD_MS,
        MAX_WINDOW_BEHIND_MS, MAX_WINDOW_MS,
    },
    store::{
        notices::{NewUpdate, UpdateRow},
        StatusQueries,
    },
};

/// What every new notice is opened with, checked: its title, first update's text (Markdown)
/// and components.
struct Opening {
    title: String,
    markdown: String,
    components: String,
}

/// What an incident and a maintenance window open with differently.
struct Specifics {
    kind: NoticeKind,
    impact: Impact,
    status: NoticeStatus,
    check_incident: Option<String>,
    /// `(starts_at, ends_at)` of a window.
    window: Option<(i64, i64)>,
    component_status: Option<ComponentStatus>,
}

impl Operator<'_> {
    /// What a new notice opens with, checked (the components against this deployment's).
    fn opening(&self, title: &str, body: &str, ids: &[String]) -> Result<Opening, AppError> {
        Ok(Opening {
            title: text(title, "The title", MAX_TITLE_CHARS, false)?,
            markdown: text(body, "The text", MAX_BODY_CHARS, true)?,
            components: components(ids, &self.view_components())?,
        })
    }

    /// Opens an incident; the notice as the page shows it now.
    pub async fn open_incident(&self, body: OpenIncident) -> Result<Notice, AppError> {
        let opening = self.opening(&body.title, &body.body, &body.components)?;
        if body.impact == Impact::Maintenance {
            return Err(invalid(
                "Choose the impact: none, minor, major or critical.",
            ));
        }
        if !NoticeStatus::INCIDENT.contains(&body.status) || body.status.is_final() {
            return Err(invalid(
                "A new incident starts as investigating, identified or monitoring.",
            ));
        }
        if let Some(check) = &body.check_incident {
            let published = self.status.published();
            let summary = published.page_summary();
            let known = summary
                .open_incidents
                .iter()
                .chain(&summary.recent_incidents)
                .any(|i| &i.id == check);
            if !known {
                return Err(invalid(
                    "The checks' incident to attach to is not one they opened in the last 90 days.",
                ));
            }
        }
        let specifics = Specifics {
            kind: NoticeKind::Incident,
            impact: body.impact,
            status: body.status,
            check_incident: body.check_incident,
            window: None,
            component_status: declarable(body.component_status)?,
        };
        self.create(now_ms(), opening, specifics).await
    }

    /// Schedules a maintenance window; the notice as the page shows it now.
    pub async fn schedule_maintenance(
        &self,
        body: ScheduleMaintenance,
    ) -> Result<Notice, AppError> {
        let now = now_ms();
        let opening = self.opening(&body.title, &body.body, &body.components)?;
        let time = |value: &str, name: &str| {
            parse_utc_ms(value).ok_or_else(|| {
                invalid(&format!(
                    "{name} is not a date and time (UTC) such as 2026-11-29 02:00."
                ))
            })
        };
        let (start, end) = (
            time(&body.starts_at, "The start")?,
            time(&body.ends_at, "The end")?,
        );
        if end <= start || end - start > MAX_WINDOW_MS {
            return Err(invalid(
                "The end must be after the start, and at most 7 days after it.",
            ));
        }
        if end <= now {
            // A window already over would excuse downtime the page has already shown.
            return Err(invalid("The end must be in the future."));
        }
        if start > now + MAX_WINDOW_AHEAD_MS || start < now - MAX_WINDOW_BEHIND_MS {
            return Err(invalid(
                "The start must be within the next 90 days (or the last 24 hours).",
            ));
        }
        let specifics = Specifics {
            kind: NoticeKind::Maintenance,
            impact: Impact::Maintenance,
            status: NoticeStatus::Scheduled,
            check_incident: None,
            window: Some((start, end)),
            component_status: None,
        };
        self.create(now, opening, specifics).await
    }

    /// Adds an update to the notice `id` of `kind`; a final status resolves or completes it.
    pub async fn add_update(
        &self,
        id: &str,
        kind: NoticeKind,
        body: PostUpdate,
    ) -> Result<Notice, AppError> {
        let allowed = NoticeStatus::of_kind(kind);
        if !allowed.contains(&body.status) {
            return Err(invalid(&format!(
                "The status of {} must be {}.",
                match kind {
                    NoticeKind::Incident => "an incident",
                    NoticeKind::Maintenance => "a maintenance window",
                },
                one_of(allowed)
            )));
        }
        if kind == NoticeKind::Maintenance && body.component_status.is_some() {
            return Err(invalid(
                "A maintenance window sets no component status: its components are under maintenance while it runs.",
            ));
        }
        let component_status = declarable(body.component_status)?;
        let now = now_ms();
        let markdown = text(&body.body, "The update", MAX_BODY_CHARS, true)?;
        let store = self.db.status();
        let found = store.find_notice(id).await?;
        let Some((found, _)) = found.filter(|(n, _)| n.kind == kind) else {
            return Err(AppError::NotFound);
        };
        if found.resolved_at.is_some() {
            return Err(invalid("It is already resolved or completed."));
        }
        self.take_write(now)?;
        let update = NewUpdate {
            id: &found.id,
            kind,
            status: body.status,
            body: &markdown,
            at: now,
            author: self.who,
            component_status,
        };
        let Some(seq) = store.append_notice_update(&update, MAX_UPDATES).await? else {
            return Err(invalid(&format!(
                "It has {MAX_UPDATES} updates (the most), or it was resolved meanwhile."
            )));
        };
        self.logged(&action_of(kind, seq, body.status), &found.id);
        self.answer(&found.id, now).await
    }

    /// Counts the write, stores a new notice's first update (refused inside the statement when
    /// [`MAX_OPEN_NOTICES`] are open), then answers the notice.
    async fn create(
        &self,
        now: i64,
        opening: Opening,
        specifics: Specifics,
    ) -> Result<Notice, AppError> {
        self.take_write(now)?;
        let first = UpdateRow {
            notice_id: random_hex::<16>(),
            seq: 1,
            kind: specifics.kind,
            title: opening.title,
            impact: specifics.impact,
            components: opening.components,
            check_incident: specifics.check_incident,
            starts_at: specifics.window.map(|(start, _)| start),
            ends_at: specifics.window.map(|(_, end)| end),
            status: specifics.status,
            body: opening.markdown,
            created_at: now,
            author: self.who.to_owned(),
            component_status: specifics.component_status.map(|s| s.as_str().to_owned()),
            edited_at: None,
        };
        if !self
            .db
            .status()
            .insert_notice(&first, MAX_OPEN_NOTICES)
            .await?
        {
            return Err(invalid(&format!(
                "{MAX_OPEN_NOTICES} incidents and windows are open: resolve one first."
            )));
        }
        self.logged(&action_of(first.kind, 1, first.status), &first.notice_id);
        self.answer(&first.notice_id, first.created_at).await
    }

    /// The notice as stored now, after re-rendering the answers with it.
    pub(super) async fn answer(&self, id: &str, now: i64) -> Result<Notice, AppError> {
        // The write is committed: a failure to re-render only delays the page until the next round.
        if let Err(error) = self.status.republish_notices(now).await {
            tracing::warn!(%error, "status: the answers are re-rendered with the next round");
        }
        let published = self
            .status
            .published()
            .page_summary()
            .notices
            .iter()
            .find(|n| n.id == id)
            .cloned();
        match published {
            Some(notice) => Ok(notice),
            None => {
                let stored = self
                    .db
                    .status()
                    .find_notice(id)
                    .await?
                    .ok_or(AppError::NotFound)?;
                Ok(notice_at(&stored, now))
            }
        }
    }
}

/// What an operator did, in words: `open incident`, `schedule maintenance`, `update incident
/// (resolved)`.
pub(super) fn action_of(kind: NoticeKind, seq: i64, status: NoticeStatus) -> String {
    match (kind, seq) {
        (NoticeKind::Maintenance, 1) => "schedule maintenance".to_owned(),
        (NoticeKind::Incident, 1) => "open incident".to_owned(),
        (kind, _) => format!("update {kind} ({status})"),
    }
}

/// A component status an incident may declare: any but `under_maintenance`, which only a window
/// in progress gives.
fn declarable(status: Option<ComponentStatus>) -> Result<Option<ComponentStatus>, AppError> {
    if status == Some(ComponentStatus::UnderMaintenance) {
        return Err(invalid(
            "An incident cannot put a component under maintenance: schedule a maintenance window.",
        ));
    }
    Ok(status)
}

/// `a, b or c`.
fn one_of(statuses: &[NoticeStatus]) -> String {
    let words: Vec<&str> = statuses.iter().map(|s| s.as_str()).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.concat(),
    }
}
