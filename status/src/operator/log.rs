//! The operator log: every operator action, newest first, from the tables that record them (the
//! notices' updates, their corrections with the text they replaced, the component statuses set on
//! their own, the webhooks' adds and deletes).

use mg_platform::{error::AppError, time::rfc3339};

use super::{
    bodies::{OperatorAction, OperatorLog},
    notices::action_of,
    Operator,
};
use crate::{operator_limits::LOG_READ, store::StatusQueries};

impl Operator<'_> {
    /// The latest [`LOG_READ`] operator actions, newest first (docs/status-operators.md, "Bounds
    /// and the log").
    pub async fn log(&self) -> Result<OperatorLog, AppError> {
        let store = self.db.status();
        let mut entries: Vec<(i64, OperatorAction)> = Vec::new();
        for row in store.operator_log(LOG_READ).await? {
            let action = action_of(row.kind, row.seq, row.status);
            let entry = logged(row.created_at, row.author, action, row.notice_id, None);
            entries.push((row.created_at, entry));
        }
        for row in store.revision_log(LOG_READ).await? {
            let verb = if row.body.is_some() { "edit" } else { "delete" };
            let action = format!("{verb} {} update {}", row.kind, row.seq);
            let entry = logged(
                row.created_at,
                row.author,
                action,
                row.notice_id,
                Some(row.old_body),
            );
            entries.push((row.created_at, entry));
        }
        for row in store.declaration_log(LOG_READ).await? {
            let action = match row.declared() {
                Some(status) => format!("set component status ({status})"),
                None => "clear component status".to_owned(),
            };
            let target = format!("component {}", row.component);
            entries.push((
                row.created_at,
                logged(row.created_at, row.author, action, target, None),
            ));
        }
        for hook in store.webhook_changes(LOG_READ).await? {
            let target = format!("webhook {}", hook.name);
            if let (Some(at), Some(by)) = (hook.deleted_at, hook.deleted_by) {
                let action = logged(at, by, "delete webhook".into(), target.clone(), None);
                entries.push((at, action));
            }
            let action = logged(
                hook.created_at,
                hook.created_by,
                "add webhook".into(),
                target,
                None,
            );
            entries.push((hook.created_at, action));
        }
        entries.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
        let entries = entries
            .into_iter()
            .take(usize::try_from(LOG_READ).unwrap_or(0))
            .map(|(_, entry)| entry)
            .collect();
        Ok(OperatorLog { entries })
    }
}

fn logged(
    at: i64,
    operator: String,
    action: String,
    target: String,
    old_text: Option<String>,
) -> OperatorAction {
    OperatorAction {
        at: rfc3339(at),
        operator,
        action,
        target,
        old_text,
    }
}
