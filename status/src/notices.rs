//! Incidents and maintenance windows written by operators, as the answers carry them: stored rows
//! turned into `mg_domain::notices::Notice` at a given time (a window's status follows its clock,
//! Markdown becomes safe HTML), and the windows during which a component's checks do not count.

use mg_domain::notices::{Notice, NoticeKind, NoticeStatus, NoticeUpdate};
use mg_status_formats::markdown::to_safe_html;

use crate::store::notices::{NoticeRow, UpdateRow};
use mg_platform::time::rfc3339;

/// A notice as read with its updates (newest first).
pub type StoredNotice = (NoticeRow, Vec<UpdateRow>);

/// The status a maintenance window has at `now_ms`: completed once completed by an operator or
/// past its end, in progress inside it, scheduled before it.
pub fn window_status(row: &NoticeRow, now_ms: i64) -> NoticeStatus {
    let (Some(start), Some(end)) = (row.starts_at, row.ends_at) else {
        return NoticeStatus::Completed;
    };
    if row.resolved_at.is_some() || now_ms >= end {
        NoticeStatus::Completed
    } else if now_ms >= start {
        NoticeStatus::InProgress
    } else {
        NoticeStatus::Scheduled
    }
}

/// The notice `row` is at `now_ms`.
pub fn notice_at((row, updates): &StoredNotice, now_ms: i64) -> Notice {
    let kind = row.kind;
    let status = match kind {
        NoticeKind::Maintenance => window_status(row, now_ms),
        NoticeKind::Incident => row.status,
    };
    Notice {
        id: row.id.clone(),
        kind,
        title: row.title.clone(),
        impact: row.impact,
        status,
        components: component_list(&row.components),
        check_incident: row.check_incident.clone(),
        starts_at: row.starts_at.map(rfc3339),
        ends_at: row.ends_at.map(rfc3339),
        created_at: rfc3339(row.created_at),
        updated_at: rfc3339(row.updated_at),
        resolved_at: match kind {
            NoticeKind::Maintenance if status == NoticeStatus::Completed => Some(rfc3339(
                row.resolved_at.or(row.ends_at).unwrap_or(row.updated_at),
            )),
            _ => row.resolved_at.map(rfc3339),
        },
        component_status: match kind {
            NoticeKind::Incident if !status.is_final() => row.component_status,
            _ => None,
        },
        updates: updates
            .iter()
            .map(|update| NoticeUpdate {
                seq: update.seq,
                status: update.status,
                body_html: to_safe_html(&update.body),
                created_at: rfc3339(update.created_at),
                edited_at: update.edited_at.map(rfc3339),
                component_status: update.declared(),
            })
            .collect(),
    }
}

/// The notices of the answers at `now_ms`: open incidents, then running and upcoming windows,
/// then the rest (resolved incidents, completed windows), each group newest first.
pub fn notices_at(stored: &[StoredNotice], now_ms: i64) -> Vec<Notice> {
    let mut notices: Vec<Notice> = stored.iter().map(|n| notice_at(n, now_ms)).collect();
    let group = |notice: &Notice| match (notice.kind, notice.status) {
        (_, status) if status.is_final() => 3,
        (NoticeKind::Incident, _) => 0,
        (NoticeKind::Maintenance, NoticeStatus::InProgress) => 1,
        (NoticeKind::Maintenance, _) => 2,
    };
    notices.sort_by(|a, b| {
        group(a)
            .cmp(&group(b))
            .then_with(|| b.created_at.cmp(&a.created_at))
    });
    notices
}

/// Component ids from the stored, comma-joined form.
pub fn component_list(text: &str) -> Vec<String> {
    text.split(',')
        .filter(|id| !id.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The maintenance windows `[start, end)` of `component`, in unix milliseconds (a window completed
/// early ends when it was completed).
pub fn maintenance_windows(stored: &[NoticeRow], component: &str) -> Vec<(i64, i64)> {
    titled_windows(stored, component)
        .into_iter()
        .map(|(start, end, _)| (start, end))
        .collect()
}

/// [`maintenance_windows`] with each window's title, in the order they start.
pub fn titled_windows<'a>(stored: &'a [NoticeRow], component: &str) -> Vec<(i64, i64, &'a str)> {
    let mut windows: Vec<(i64, i64, &str)> = stored
        .iter()
        .filter(|row| row.kind == NoticeKind::Maintenance)
        .filter(|row| {
            component_list(&row.components)
                .iter()
                .any(|c| c == component)
        })
        .filter_map(|row| {
            let start = row.starts_at?;
            let end = row.ends_at?.min(row.resolved_at.unwrap_or(i64::MAX));
            (end > start).then_some((start, end, row.title.as_str()))
        })
        .collect();
    windows.sort_by_key(|(start, end, _)| (*start, *end));
    windows
}

/// Whether `at` falls in one of `windows`.
pub fn in_windows(windows: &[(i64, i64)], at: i64) -> bool {
    windows
        .iter()
        .any(|(start, end)| (*start..*end).contains(&at))
}

/// Whether `[from, to)` overlaps one of `windows`.
pub fn overlaps_windows(windows: &[(i64, i64)], from: i64, to: i64) -> bool {
    windows
        .iter()
        .any(|(start, end)| *start < to && from < *end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mg_domain::notices::Impact;

    fn window(start: i64, end: i64) -> NoticeRow {
        NoticeRow {
            id: "m1".into(),
            kind: NoticeKind::Maintenance,
            title: "Database upgrade".into(),
            impact: Impact::Maintenance,
            components: "db,api".into(),
            status: NoticeStatus::Scheduled,
            check_incident: None,
            starts_at: Some(start),
            ends_at: Some(end),
            created_at: 0,
            updated_at: 0,
            resolved_at: None,
            component_status: None,
        }
    }

    #[test]
    fn a_window_is_scheduled_then_in_progress_then_completed() {
        let row = window(100, 200);
        assert_eq!(window_status(&row, 50), NoticeStatus::Scheduled);
        assert_eq!(window_status(&row, 100), NoticeStatus::InProgress);
        assert_eq!(window_status(&row, 200), NoticeStatus::Completed);
        let early = NoticeRow {
            resolved_at: Some(150),
            ..row
        };
        assert_eq!(window_status(&early, 120), NoticeStatus::Completed);
        let stored = vec![early];
        assert_eq!(maintenance_windows(&stored, "db"), [(100, 150)]);
        assert_eq!(maintenance_windows(&stored, "queue"), []);
    }

    #[test]
    fn windows_hold_their_start_and_not_their_end() {
        let windows = [(100, 200)];
        assert!(in_windows(&windows, 100));
        assert!(!in_windows(&windows, 200));
        assert!(overlaps_windows(&windows, 150, 300));
        assert!(!overlaps_windows(&windows, 200, 300));
    }
}
