//! The status operators' tables: incidents and maintenance windows (`status_posts`), their
//! timelines (`status_post_updates`) and the log of what operators did (`status_operator_log`).
//! Every write is one transaction that also writes its log line: it is acknowledged only after the
//! commit, and a failed commit (the transaction is then rolled back) stores nothing.

use sqlx::FromRow;

use super::Database;
use crate::time::DAY_MS;

/// Resolved incidents and completed windows stay in the answers this long (then only the log
/// keeps what was done).
pub const NOTICE_RETENTION_MS: i64 = 90 * DAY_MS;
/// The log of operator actions is kept this long.
pub const LOG_RETENTION_MS: i64 = 90 * DAY_MS;
/// Notices read into the answers at most (the newest).
pub const NOTICES_READ_LIMIT: i64 = 200;

/// One incident or maintenance window as stored.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct NoticeRow {
    pub id: String,
    pub kind: String,
    pub title: String,
    pub impact: String,
    /// Component ids joined by commas.
    pub components: String,
    pub status: String,
    pub check_incident: Option<String>,
    pub starts_at: Option<i64>,
    pub ends_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    pub resolved_at: Option<i64>,
    pub created_by: String,
}

/// One update of a notice's timeline; `body` is the operator's Markdown.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct UpdateRow {
    pub post_id: String,
    pub seq: i64,
    pub status: String,
    pub body: String,
    pub created_at: i64,
    pub author: String,
}

/// One line of the operator log.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct LogRow {
    pub id: String,
    pub at: i64,
    pub operator: String,
    pub action: String,
    pub target: String,
}

/// What an operator changes on a notice with an update.
#[derive(Debug, Clone)]
pub struct NoticeChange {
    pub status: String,
    pub updated_at: i64,
    pub resolved_at: Option<i64>,
}

const POST_COLUMNS: &str = "id, kind, title, impact, components, status, check_incident, \
                            starts_at, ends_at, created_at, updated_at, resolved_at, created_by";
const UPDATE_COLUMNS: &str = "post_id, seq, status, body, created_at, author";

impl Database {
    /// Stores a new notice with its first update and the log line, in one transaction.
    #[tracing::instrument(skip_all, fields(id = %notice.id))]
    pub async fn insert_notice(
        &self,
        notice: &NoticeRow,
        first: &UpdateRow,
        log: &LogRow,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool().begin().await?;
        sqlx::query(&format!(
            "INSERT INTO status_posts ({POST_COLUMNS}) VALUES \
             ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
        ))
        .bind(&notice.id)
        .bind(&notice.kind)
        .bind(&notice.title)
        .bind(&notice.impact)
        .bind(&notice.components)
        .bind(&notice.status)
        .bind(&notice.check_incident)
        .bind(notice.starts_at)
        .bind(notice.ends_at)
        .bind(notice.created_at)
        .bind(notice.updated_at)
        .bind(notice.resolved_at)
        .bind(&notice.created_by)
        .execute(&mut *tx)
        .await?;
        insert_update(&mut tx, first).await?;
        insert_log(&mut tx, log).await?;
        tx.commit().await
    }

    /// Adds `update` to its notice and applies `change`, with the log line, in one transaction.
    /// `false` (nothing stored) when the notice does not exist or already has `max_updates`.
    #[tracing::instrument(skip_all, fields(id = %update.post_id))]
    pub async fn add_notice_update(
        &self,
        update: &UpdateRow,
        change: &NoticeChange,
        max_updates: i64,
        log: &LogRow,
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.pool().begin().await?;
        // Taking the row first serialises concurrent updates of one notice (PostgreSQL locks it;
        // SQLite has one writer at a time once the UPDATE below runs).
        let changed = sqlx::query(
            "UPDATE status_posts SET status = $1, updated_at = $2, \
             resolved_at = COALESCE($3, resolved_at) WHERE id = $4",
        )
        .bind(&change.status)
        .bind(change.updated_at)
        .bind(change.resolved_at)
        .bind(&update.post_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if changed != 1 {
            return Ok(false);
        }
        let (count, last): (i64, Option<i64>) =
            sqlx::query_as("SELECT COUNT(*), MAX(seq) FROM status_post_updates WHERE post_id = $1")
                .bind(&update.post_id)
                .fetch_one(&mut *tx)
                .await?;
        if count >= max_updates {
            return Ok(false);
        }
        let numbered = UpdateRow {
            seq: last.unwrap_or(0) + 1,
            ..update.clone()
        };
        insert_update(&mut tx, &numbered).await?;
        insert_log(&mut tx, log).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The notice with this id.
    pub async fn find_notice(&self, id: &str) -> Result<Option<NoticeRow>, sqlx::Error> {
        sqlx::query_as::<_, NoticeRow>(&format!(
            "SELECT {POST_COLUMNS} FROM status_posts WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(self.pool())
        .await
    }

    /// Notices still open or changed since `since`, newest first (at most [`NOTICES_READ_LIMIT`]),
    /// with every update of each.
    pub async fn notices_since(
        &self,
        since: i64,
    ) -> Result<Vec<(NoticeRow, Vec<UpdateRow>)>, sqlx::Error> {
        let notices = sqlx::query_as::<_, NoticeRow>(&format!(
            "SELECT {POST_COLUMNS} FROM status_posts \
             WHERE (resolved_at IS NULL AND kind = 'incident') \
             OR COALESCE(resolved_at, ends_at, updated_at) >= $1 OR updated_at >= $1 \
             ORDER BY created_at DESC, id LIMIT $2"
        ))
        .bind(since)
        .bind(NOTICES_READ_LIMIT)
        .fetch_all(self.pool())
        .await?;
        let Some(oldest) = notices.iter().map(|n| n.created_at).min() else {
            return Ok(Vec::new());
        };
        let updates = sqlx::query_as::<_, UpdateRow>(&format!(
            "SELECT u.{} FROM status_post_updates u JOIN status_posts p ON p.id = u.post_id \
             WHERE p.created_at >= $1 ORDER BY u.post_id, u.seq DESC",
            UPDATE_COLUMNS.replace(", ", ", u.")
        ))
        .bind(oldest)
        .fetch_all(self.pool())
        .await?;
        Ok(notices
            .into_iter()
            .map(|notice| {
                let mine = updates
                    .iter()
                    .filter(|u| u.post_id == notice.id)
                    .cloned()
                    .collect();
                (notice, mine)
            })
            .collect())
    }

    /// Notices open at `now_ms`: unresolved incidents and windows neither completed nor over.
    pub async fn count_open_notices(&self, now_ms: i64) -> Result<i64, sqlx::Error> {
        sqlx::query_scalar(
            "SELECT COUNT(*) FROM status_posts WHERE resolved_at IS NULL \
             AND (ends_at IS NULL OR ends_at > $1)",
        )
        .bind(now_ms)
        .fetch_one(self.pool())
        .await
    }

    /// The latest `limit` operator actions, newest first.
    pub async fn operator_log(&self, limit: i64) -> Result<Vec<LogRow>, sqlx::Error> {
        sqlx::query_as::<_, LogRow>(
            "SELECT id, at, operator, action, target FROM status_operator_log \
             ORDER BY at DESC, id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(self.pool())
        .await
    }

    /// Deletes notices over for longer than [`NOTICE_RETENTION_MS`] (their updates go with them)
    /// and log lines older than [`LOG_RETENTION_MS`]; returns rows deleted.
    pub async fn prune_notices(&self, now_ms: i64) -> Result<u64, sqlx::Error> {
        let notices = sqlx::query(
            "DELETE FROM status_posts WHERE COALESCE(resolved_at, ends_at) < $1 \
             AND (ends_at IS NULL OR ends_at < $1)",
        )
        .bind(now_ms - NOTICE_RETENTION_MS)
        .execute(self.pool())
        .await?
        .rows_affected();
        let log = sqlx::query("DELETE FROM status_operator_log WHERE at < $1")
            .bind(now_ms - LOG_RETENTION_MS)
            .execute(self.pool())
            .await?
            .rows_affected();
        Ok(notices + log)
    }
}

async fn insert_update(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    update: &UpdateRow,
) -> Result<(), sqlx::Error> {
    sqlx::query(&format!(
        "INSERT INTO status_post_updates ({UPDATE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)"
    ))
    .bind(&update.post_id)
    .bind(update.seq)
    .bind(&update.status)
    .bind(&update.body)
    .bind(update.created_at)
    .bind(&update.author)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn insert_log(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    log: &LogRow,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO status_operator_log (id, at, operator, action, target) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&log.id)
    .bind(log.at)
    .bind(&log.operator)
    .bind(&log.action)
    .bind(&log.target)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
