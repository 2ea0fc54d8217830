//! `/api/status/operator*`, `/api/status/incidents*`, `/api/status/maintenances*`: what status
//! operators do on the status page. An operator is a signed-in person whose identity token grants
//! the `status-operator` role (docs/status-operators.md); anyone else gets 403 JSON, and a request
//! without a valid session 401 (`status_operator`). Every write is bounded, counted against the
//! operator's rate, logged (who, what, when: the server's log, and the notices' timelines, which
//! with the webhooks' adds and deletes are the operator log) and acknowledged after its commit;
//! the answers are re-rendered at once on this instance, and the others pick it up next round.

use std::sync::Arc;

use axum::{
    extract::{FromRef, FromRequestParts, Path, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::{get, post, MethodRouter},
    Json, Router,
};
use mg_domain::{
    calendar::parse_utc_ms,
    notices::{Impact, Notice, NoticeKind, NoticeStatus},
};
use serde::{Deserialize, Serialize};

use super::status_operator::{invalid, logged, take_write, text, StatusOperator};
use crate::{
    db::Database,
    error::AppError,
    extract::ApiJson,
    identity::{sessions::SessionStore, verify::SessionVerifier},
    status::{
        checks::COMPONENTS,
        notices::notice_at,
        operator_limits::{
            LOG_READ, MAX_BODY_CHARS, MAX_OPEN_NOTICES, MAX_TITLE_CHARS, MAX_UPDATES,
            MAX_WINDOW_AHEAD_MS, MAX_WINDOW_BEHIND_MS, MAX_WINDOW_MS,
        },
        store::{
            notices::{NewUpdate, UpdateRow},
            StatusQueries,
        },
        StatusService,
    },
    time::{now_ms, rfc3339},
};

/// Routes nested under `/api`.
pub fn api_router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Database: FromRef<S>,
    Arc<SessionStore>: FromRef<S>,
    Option<Arc<SessionVerifier>>: FromRef<S>,
    Arc<StatusService>: FromRef<S>,
{
    Router::new()
        .route("/status/operator", get(get_operator))
        .route("/status/operator/log", get(get_log))
        .route("/status/incidents", post(open_incident))
        .route(
            "/status/incidents/{id}/updates",
            update_route(NoticeKind::Incident),
        )
        .route("/status/maintenances", post(schedule_maintenance))
        .route(
            "/status/maintenances/{id}/updates",
            update_route(NoticeKind::Maintenance),
        )
}

/// `GET /api/status/operator`: what the operator view needs.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OperatorView {
    pub operator: String,
    /// `(id, name)` of the components an incident or window may name.
    pub components: Vec<(String, String)>,
    /// The checks' incidents an incident may be attached to (open and recent ones' ids).
    pub check_incidents: Vec<String>,
    /// The incidents and windows still open, which can take updates.
    pub open_notices: Vec<OpenNotice>,
    pub limits: OperatorLimits,
}

#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OpenNotice {
    pub id: String,
    pub kind: NoticeKind,
    pub title: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OperatorLimits {
    pub title_chars: usize,
    pub body_chars: usize,
    pub updates_per_notice: i64,
    pub open_notices: i64,
}

/// `POST /api/status/incidents`.
#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "OpenIncidentRequest"))]
#[serde(deny_unknown_fields)]
pub struct OpenIncident {
    pub title: String,
    pub impact: Impact,
    pub components: Vec<String>,
    pub status: NoticeStatus,
    /// The first update's text (Markdown).
    pub body: String,
    /// The id of an incident the checks opened, to attach this one to.
    #[serde(default)]
    #[cfg_attr(test, ts(optional = nullable))]
    pub check_incident: Option<String>,
}

/// `POST /api/status/maintenances`.
#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ScheduleMaintenanceRequest"))]
#[serde(deny_unknown_fields)]
pub struct ScheduleMaintenance {
    pub title: String,
    pub components: Vec<String>,
    /// RFC 3339 UTC (`2026-11-29T02:00:00Z`).
    pub starts_at: String,
    pub ends_at: String,
    pub body: String,
}

/// `POST /api/status/{incidents,maintenances}/{id}/updates`.
#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "NoticeUpdateRequest"))]
#[serde(deny_unknown_fields)]
pub struct PostUpdate {
    pub status: NoticeStatus,
    pub body: String,
}

/// `GET /api/status/operator/log`: the latest operator actions, newest first.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OperatorLog {
    pub entries: Vec<OperatorAction>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OperatorAction {
    pub at: String,
    pub operator: String,
    pub action: String,
    pub target: String,
}

async fn get_operator(
    State(status): State<Arc<StatusService>>,
    operator: StatusOperator,
) -> Json<OperatorView> {
    let published = status.published();
    let summary = published.page_summary();
    Json(OperatorView {
        operator: operator.who().to_owned(),
        components: COMPONENTS
            .iter()
            .map(|(id, name)| ((*id).to_owned(), (*name).to_owned()))
            .collect(),
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
    })
}

async fn get_log(
    State(db): State<Database>,
    _operator: StatusOperator,
) -> Result<Json<OperatorLog>, AppError> {
    let mut entries: Vec<(i64, OperatorAction)> = db
        .status()
        .operator_log(LOG_READ)
        .await?
        .into_iter()
        .map(|row| {
            let action = action_of(&row.kind, row.seq, &row.status);
            (
                row.created_at,
                logged_action(row.created_at, row.author, action, row.notice_id),
            )
        })
        .collect();
    // The webhooks' adds and deletes (docs/status-operators.md, "Webhooks").
    for hook in db.status().webhook_changes(LOG_READ).await? {
        let target = format!("webhook {}", hook.name);
        if let (Some(at), Some(by)) = (hook.deleted_at, hook.deleted_by) {
            let action = logged_action(at, by, "delete webhook".into(), target.clone());
            entries.push((at, action));
        }
        let action = logged_action(
            hook.created_at,
            hook.created_by,
            "add webhook".into(),
            target,
        );
        entries.push((hook.created_at, action));
    }
    entries.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
    let entries = entries
        .into_iter()
        .take(usize::try_from(LOG_READ).unwrap_or(0))
        .map(|(_, entry)| entry)
        .collect();
    Ok(Json(OperatorLog { entries }))
}

async fn open_incident(
    State(db): State<Database>,
    State(status): State<Arc<StatusService>>,
    operator: StatusOperator,
    ApiJson(body): ApiJson<OpenIncident>,
) -> Result<Response, AppError> {
    let now = now_ms();
    let opening = Opening::checked(&body.title, &body.body, &body.components)?;
    if body.impact == Impact::Maintenance {
        return Err(invalid("impact must be none, minor, major or critical."));
    }
    if !NoticeStatus::INCIDENT.contains(&body.status) || body.status.is_final() {
        return Err(invalid(
            "status must be investigating, identified or monitoring.",
        ));
    }
    if let Some(check) = &body.check_incident {
        let published = status.published();
        let summary = published.page_summary();
        let known = summary
            .open_incidents
            .iter()
            .chain(&summary.recent_incidents)
            .any(|i| &i.id == check);
        if !known {
            return Err(invalid(
                "check_incident is not an incident the checks opened.",
            ));
        }
    }
    let specifics = Specifics {
        kind: NoticeKind::Incident,
        impact: body.impact,
        status: body.status,
        check_incident: body.check_incident,
        window: None,
    };
    create(&db, &status, &operator, now, opening, specifics).await
}

async fn schedule_maintenance(
    State(db): State<Database>,
    State(status): State<Arc<StatusService>>,
    operator: StatusOperator,
    ApiJson(body): ApiJson<ScheduleMaintenance>,
) -> Result<Response, AppError> {
    let now = now_ms();
    let opening = Opening::checked(&body.title, &body.body, &body.components)?;
    let time = |value: &str, name: &str| {
        parse_utc_ms(value).ok_or_else(|| {
            invalid(&format!(
                "{name} must be a UTC time such as 2026-11-29T02:00:00Z."
            ))
        })
    };
    let (start, end) = (
        time(&body.starts_at, "starts_at")?,
        time(&body.ends_at, "ends_at")?,
    );
    if end <= start || end - start > MAX_WINDOW_MS {
        return Err(invalid(
            "ends_at must be after starts_at, at most 7 days later.",
        ));
    }
    if start > now + MAX_WINDOW_AHEAD_MS || start < now - MAX_WINDOW_BEHIND_MS {
        return Err(invalid(
            "starts_at must be within the next 90 days (or the last 24 hours).",
        ));
    }
    let specifics = Specifics {
        kind: NoticeKind::Maintenance,
        impact: Impact::Maintenance,
        status: NoticeStatus::Scheduled,
        check_incident: None,
        window: Some((start, end)),
    };
    create(&db, &status, &operator, now, opening, specifics).await
}

/// `POST /api/status/{incidents,maintenances}/{id}/updates`: an update to a notice of `kind`.
fn update_route<S>(kind: NoticeKind) -> MethodRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Database: FromRef<S>,
    Arc<StatusService>: FromRef<S>,
    StatusOperator: FromRequestParts<S, Rejection = AppError>,
{
    post(
        move |State(db): State<Database>,
              State(status): State<Arc<StatusService>>,
              operator: StatusOperator,
              Path(id): Path<String>,
              ApiJson(body): ApiJson<PostUpdate>| async move {
            add_update(&db, &status, &operator, &id, kind, body).await
        },
    )
}

/// Adds an update to the notice `id` of `kind`; a final status resolves or completes it.
async fn add_update(
    db: &Database,
    status: &StatusService,
    operator: &StatusOperator,
    id: &str,
    kind: NoticeKind,
    body: PostUpdate,
) -> Result<Response, AppError> {
    let (allowed, statuses) = match kind {
        NoticeKind::Incident => (
            &NoticeStatus::INCIDENT[..],
            "investigating, identified, monitoring or resolved",
        ),
        NoticeKind::Maintenance => (
            &NoticeStatus::MAINTENANCE[..],
            "scheduled, in_progress or completed",
        ),
    };
    if !allowed.contains(&body.status) {
        return Err(invalid(&format!("status must be {statuses}.")));
    }
    let now = now_ms();
    let who = operator.who();
    let markdown = text(&body.body, "body", MAX_BODY_CHARS, true)?;
    let found = db.status().find_notice(id).await?;
    let Some((found, _)) = found.filter(|(n, _)| n.kind == kind.as_str()) else {
        return Err(AppError::NotFound);
    };
    if found.resolved_at.is_some() {
        return Err(invalid("It is already resolved or completed."));
    }
    take_write(status, who, now)?;
    let stored = db
        .status()
        .append_notice_update(
            &NewUpdate {
                id: &found.id,
                kind: kind.as_str(),
                status: body.status.as_str(),
                body: &markdown,
                at: now,
                author: who,
            },
            MAX_UPDATES,
        )
        .await?;
    let Some(seq) = stored else {
        return Err(invalid(&format!(
            "It has {MAX_UPDATES} updates (the most), or it was resolved meanwhile."
        )));
    };
    logged(
        who,
        &action_of(kind.as_str(), seq, body.status.as_str()),
        &found.id,
    );
    answer(db, status, &found.id, now, StatusCode::OK).await
}

/// What every new notice is opened with, checked: its title, first update's text (Markdown)
/// and components.
struct Opening {
    title: String,
    markdown: String,
    components: String,
}

impl Opening {
    fn checked(title: &str, body: &str, ids: &[String]) -> Result<Self, AppError> {
        Ok(Self {
            title: text(title, "title", MAX_TITLE_CHARS, false)?,
            markdown: text(body, "body", MAX_BODY_CHARS, true)?,
            components: components(ids)?,
        })
    }
}

/// What an incident and a maintenance window open with differently.
struct Specifics {
    kind: NoticeKind,
    impact: Impact,
    status: NoticeStatus,
    check_incident: Option<String>,
    /// `(starts_at, ends_at)` of a window.
    window: Option<(i64, i64)>,
}

/// Counts the write, stores a new notice's first update, then answers the notice (201).
async fn create(
    db: &Database,
    status: &StatusService,
    operator: &StatusOperator,
    now: i64,
    opening: Opening,
    specifics: Specifics,
) -> Result<Response, AppError> {
    let who = operator.who();
    take_write(status, who, now)?;
    if db.status().count_open_notices(now).await? >= MAX_OPEN_NOTICES {
        return Err(invalid(&format!(
            "{MAX_OPEN_NOTICES} incidents and windows are open: resolve one first."
        )));
    }
    let first = UpdateRow {
        notice_id: new_id(),
        seq: 1,
        kind: specifics.kind.as_str().into(),
        title: opening.title,
        impact: specifics.impact.as_str().into(),
        components: opening.components,
        check_incident: specifics.check_incident,
        starts_at: specifics.window.map(|(start, _)| start),
        ends_at: specifics.window.map(|(_, end)| end),
        status: specifics.status.as_str().into(),
        body: opening.markdown,
        created_at: now,
        author: who.to_owned(),
    };
    db.status().insert_notice(&first).await?;
    logged(
        &first.author,
        &action_of(&first.kind, 1, &first.status),
        &first.notice_id,
    );
    answer(
        db,
        status,
        &first.notice_id,
        first.created_at,
        StatusCode::CREATED,
    )
    .await
}

fn logged_action(at: i64, operator: String, action: String, target: String) -> OperatorAction {
    OperatorAction {
        at: rfc3339(at),
        operator,
        action,
        target,
    }
}

/// What an operator did, in words: `open incident`, `schedule maintenance`, `update incident
/// (resolved)`.
fn action_of(kind: &str, seq: i64, status: &str) -> String {
    match (kind, seq) {
        ("maintenance", 1) => "schedule maintenance".to_owned(),
        (_, 1) => "open incident".to_owned(),
        (kind, _) => format!("update {kind} ({status})"),
    }
}

/// The notice as stored now, after re-rendering the answers with it.
async fn answer(
    db: &Database,
    status: &StatusService,
    id: &str,
    now: i64,
    code: StatusCode,
) -> Result<Response, AppError> {
    // The write is committed: a failure to re-render only delays the page until the next round.
    if let Err(error) = status.republish_notices(now).await {
        tracing::warn!(%error, "status: the answers are re-rendered with the next round");
    }
    let notice: Option<Notice> = status
        .published()
        .page_summary()
        .notices
        .iter()
        .find(|n| n.id == id)
        .cloned();
    let notice = match notice {
        Some(notice) => notice,
        None => {
            let stored = db
                .status()
                .find_notice(id)
                .await?
                .ok_or(AppError::NotFound)?;
            notice_at(&stored, now)
        }
    };
    Ok((code, Json(notice)).into_response())
}

/// Known component ids, at least one, each once, joined by commas.
fn components(ids: &[String]) -> Result<String, AppError> {
    let known: Vec<&str> = COMPONENTS.iter().map(|(id, _)| *id).collect();
    if ids.is_empty() || ids.len() > known.len() {
        return Err(invalid(&format!(
            "components must name 1 to {} of {}.",
            known.len(),
            known.join(", ")
        )));
    }
    let mut chosen: Vec<&str> = Vec::new();
    for id in ids {
        let Some(found) = known.iter().find(|k| **k == id.as_str()) else {
            return Err(invalid(&format!(
                "Unknown component: use {}.",
                known.join(", ")
            )));
        };
        if chosen.contains(found) {
            return Err(invalid("A component is named twice."));
        }
        chosen.push(found);
    }
    Ok(chosen.join(","))
}

/// 16 random bytes, hex.
fn new_id() -> String {
    use ring::rand::{SecureRandom, SystemRandom};
    let mut bytes = [0u8; 16];
    // The system's generator does not fail on Linux; zeros would only make ids collide, which
    // the primary key refuses (a 503, nothing stored).
    let _ = SystemRandom::new().fill(&mut bytes);
    crate::hex::encode(&bytes)
}
