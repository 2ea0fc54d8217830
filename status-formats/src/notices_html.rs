//! The operators' incidents and maintenance windows as HTML, made once a round: a fragment the
//! status page inserts (`GET /status/notices/list`) and a whole page that reads without JavaScript
//! (`GET /status/notices`, linked from the status page). Every word and time is written here; the
//! update texts are the safe HTML of `markdown`, everything else is escaped.

use mg_domain::{
    notices::{Impact, Notice, NoticeKind},
    status::{component_name, PageHistory, Summary},
};

use crate::statuspage::PAGE_URL;
use mg_domain::html::escape;

/// Said beside the uptime figures while a window is listed.
pub const MAINTENANCE_NOTE: &str =
    "Checks inside a maintenance window are shown but left out of the uptime figures.";

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// The month's word of the server's `2026-11-25T11:30:00.000Z` ("Nov").
fn month_of(time: &str) -> Option<&'static str> {
    time.get(5..7)
        .and_then(|m| m.parse::<usize>().ok())
        .and_then(|m| MONTHS.get(m.wrapping_sub(1)))
        .copied()
}

/// "25 Nov, 11:30 UTC" of the server's `2026-11-25T11:30:00.000Z` (anything else as it is).
fn when(time: &str) -> String {
    match (time.get(8..10), month_of(time), time.get(11..16)) {
        (Some(day), Some(month), Some(clock)) => {
            format!("{} {month}, {clock} UTC", day.trim_start_matches('0'))
        }
        _ => time.to_owned(),
    }
}

fn kind_word(notice: &Notice) -> &'static str {
    match (notice.kind, notice.impact) {
        (NoticeKind::Maintenance, _) | (_, Impact::Maintenance) => "Maintenance",
        (_, Impact::None) => "No impact",
        (_, Impact::Minor) => "Minor impact",
        (_, Impact::Major) => "Major impact",
        (_, Impact::Critical) => "Critical impact",
    }
}

fn notice_html(notice: &Notice, heading: u8) -> String {
    let state = if notice.is_open() { "open" } else { "over" };
    let names: Vec<String> = notice
        .components
        .iter()
        .map(|c| component_name(c))
        .collect();
    let mut meta = format!("Affects {}.", names.join(", "));
    if let (Some(start), Some(end)) = (&notice.starts_at, &notice.ends_at) {
        meta.push_str(&format!(
            " Window: <time datetime=\"{}\">{}</time> to <time datetime=\"{}\">{}</time>.",
            escape(start),
            escape(&when(start)),
            escape(end),
            escape(&when(end))
        ));
    }
    let updates: String = notice
        .updates
        .iter()
        .map(|update| {
            format!(
                "<li class=\"op-post__update\"><p class=\"op-post__update-head\"><strong>{}</strong> \
                 <time datetime=\"{}\">{}</time></p><div class=\"op-post__text\">{}</div></li>",
                update.status.words(),
                escape(&update.created_at),
                escape(&when(&update.created_at)),
                update.body_html
            )
        })
        .collect();
    // The answers carry each notice's newest updates only: the rest are on its timeline's page.
    let more = match notice.updates.last() {
        Some(oldest) if oldest.seq > 1 => format!(
            // No count: an update's number counts the deleted ones too, and the answer does not
            // carry the others to count.
            "<p class=\"op-post__more\"><a href=\"{}\">The whole timeline</a>, with its earlier \
             updates.</p>",
            escape(&timeline_path(Some(&notice.id))),
        ),
        _ => String::new(),
    };
    format!(
        "<li class=\"op-post op-post--{state} op-post--{kind}\" id=\"notice-{id}\">\
         <p class=\"op-post__head\"><span class=\"op-post__kind\">{}</span> \
         <span class=\"op-post__state\">{}</span></p>\
         <h{heading} class=\"op-post__title\">{}</h{heading}>\
         <p class=\"op-post__meta\">{meta}</p>\
         <ol class=\"op-post__timeline\" aria-label=\"Updates, newest first\">{updates}</ol>{more}</li>",
        kind_word(notice),
        notice.status.words(),
        escape(&notice.title),
        kind = notice.kind.as_str(),
        id = escape(&notice.id),
    )
}

/// Where the timelines' pages begin at the notice `from` (`None`: at the newest notice).
pub fn timeline_path(from: Option<&str>) -> String {
    let from: String =
        url::form_urlencoded::byte_serialize(from.unwrap_or_default().as_bytes()).collect();
    format!("/status/notices?from={from}")
}

/// A page of the notices' whole timelines (`GET /status/notices?from=<id>`): `notices`, newest
/// first, each with every update, and a link to the page of the older ones from `next` on.
pub fn timeline_page(notices: &[Notice], next: Option<&str>) -> String {
    let list: String = notices.iter().map(|n| notice_html(n, 2)).collect();
    let list = if list.is_empty() {
        "<p class=\"notices__none\">No incidents or maintenance posted by the operators in the \
         last 90 days.</p>"
            .to_owned()
    } else {
        format!("<ul class=\"notices__list\">{list}</ul>")
    };
    let older = next.map_or_else(String::new, |next| {
        format!(
            "<p><a href=\"{}\" rel=\"next\">Older posts</a></p>",
            escape(&timeline_path(Some(next)))
        )
    });
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>mg-web status: timelines of incidents and maintenance</title></head><body><main>\
         <h1>Incidents and maintenance: whole timelines</h1><p>What the operators posted, newest \
         first, each post with every update. <a href=\"/status/notices\">Open and recent posts</a>, \
         <a href=\"{PAGE_URL}\">the status page</a>.</p>{list}{older}</main></body></html>\n"
    )
}

/// The list (or a sentence saying there is none), titles at `<h{heading}>`.
pub fn fragment(summary: &Summary, heading: u8) -> String {
    if summary.notices.is_empty() {
        return "<p class=\"notices__none\">No incidents or maintenance posted by the operators in \
                the last 90 days.</p>"
            .to_owned();
    }
    let mut out = String::new();
    if summary
        .notices
        .iter()
        .any(|n| n.kind == NoticeKind::Maintenance && n.is_open())
    {
        out.push_str(&format!(
            "<p class=\"notices__note\">{MAINTENANCE_NOTE}</p>"
        ));
    }
    out.push_str("<ul class=\"notices__list\">");
    for notice in &summary.notices {
        out.push_str(&notice_html(notice, heading));
    }
    out.push_str("</ul>");
    out
}

/// The days of `history` (each component's 90 daily points) with checks that failed inside a
/// maintenance window, newest first: what the status page's day bars show as maintenance, for a
/// reader without JavaScript. Empty without such days.
pub fn maintenance_days(history: &[PageHistory]) -> String {
    let mut days: Vec<(&str, String)> = Vec::new();
    for series in history {
        for point in &series.daily.points {
            let Some(maintenance) = point.maintenance.as_ref().filter(|m| m.failures > 0) else {
                continue;
            };
            let windows: Vec<String> = maintenance
                .windows
                .iter()
                .map(|title| format!("'{}'", escape(title)))
                .collect();
            let plural = if maintenance.failures == 1 { "" } else { "s" };
            let shown = if point.in_maintenance() {
                "shown as maintenance"
            } else {
                "checks failed outside the window too: shown as the day's uptime says"
            };
            days.push((
                &point.start,
                format!(
                    "<li><strong>{}, <time datetime=\"{}\">{}</time></strong>: {} failed \
                     check{plural} during {} ({shown}).</li>",
                    escape(&component_name(&series.component)),
                    escape(point.start.get(..10).unwrap_or_default()),
                    escape(&day_word(&point.start)),
                    maintenance.failures,
                    windows.join(", "),
                ),
            ));
        }
    }
    if days.is_empty() {
        return String::new();
    }
    days.sort_by(|a, b| b.0.cmp(a.0));
    let items: String = days.into_iter().map(|(_, item)| item).collect();
    format!(
        "<section aria-labelledby=\"maintenance-days\"><h2 id=\"maintenance-days\">Failed checks \
         during maintenance</h2><p>A day whose checks failed only inside maintenance windows \
         shows as maintenance on the status page's day bars. {MAINTENANCE_NOTE}</p>\
         <ul class=\"maintenance-days\">{items}</ul></section>"
    )
}

/// "25 Nov 2026" of the server's `2026-11-25T00:00:00.000Z`.
fn day_word(time: &str) -> String {
    match (time.get(8..10), month_of(time), time.get(..4)) {
        (Some(day), Some(month), Some(year)) => {
            format!("{} {month} {year}", day.trim_start_matches('0'))
        }
        _ => time.to_owned(),
    }
}

/// The whole page, readable without JavaScript: the operators' posts, then the days whose
/// checks failed during maintenance (`history`, the page's daily series).
pub fn page(summary: &Summary, history: &[PageHistory]) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>mg-web status: incidents and maintenance</title></head><body><main>\
         <h1>Incidents and maintenance</h1><p>What the operators posted, newest first within open \
         and over. Updated {}. <a href=\"{PAGE_URL}\">The status page</a>, \
         <a href=\"/status/feed.atom\">the Atom feed</a>, <a href=\"{}\">every post with its \
         whole timeline</a>.</p>{}{}</main></body></html>\n",
        escape(&when(&summary.updated_at)),
        escape(&timeline_path(None)),
        fragment(summary, 2),
        maintenance_days(history)
    )
}

#[cfg(test)]
mod tests {
    use mg_domain::notices::NoticeStatus;

    use super::*;
    use mg_domain::notices::NoticeUpdate;

    #[test]
    fn a_notice_reads_with_its_timeline_and_nothing_unescaped() {
        let summary = Summary {
            notices: vec![Notice {
                id: "n1".into(),
                kind: NoticeKind::Maintenance,
                title: "Upgrade <b>db</b>".into(),
                impact: Impact::Maintenance,
                status: NoticeStatus::Scheduled,
                components: vec!["db".into()],
                starts_at: Some("2026-11-29T02:00:00.000Z".into()),
                ends_at: Some("2026-11-29T03:00:00.000Z".into()),
                updates: vec![NoticeUpdate {
                    seq: 1,
                    status: NoticeStatus::Scheduled,
                    body_html: "<p>Planned.</p>\n".into(),
                    created_at: "2026-11-25T09:05:00.000Z".into(),
                    ..NoticeUpdate::default()
                }],
                ..Notice::default()
            }],
            ..Summary::default()
        };
        let html = fragment(&summary, 3);
        assert!(html.contains("Upgrade &lt;b&gt;db&lt;/b&gt;"), "{html}");
        assert!(html.contains(MAINTENANCE_NOTE));
        assert!(html.contains(">29 Nov, 02:00 UTC</time> to"), "{html}");
        assert!(html.contains("<strong>Scheduled</strong> <time datetime=\"2026-11-25T09:05:00.000Z\">25 Nov, 09:05 UTC</time>"));
        assert!(html.contains("Affects Database."), "{html}");
        assert!(fragment(&Summary::default(), 3).contains("No incidents"));
    }

    #[test]
    fn a_notice_with_earlier_updates_links_its_timeline_without_counting_them() {
        let update = |seq| NoticeUpdate {
            seq,
            status: NoticeStatus::Identified,
            ..NoticeUpdate::default()
        };
        let summary = Summary {
            notices: vec![Notice {
                id: "n1".into(),
                // Its update 3 was deleted: the newest shown is number 4 of three left.
                updates: vec![update(4)],
                ..Notice::default()
            }],
            ..Summary::default()
        };
        let html = fragment(&summary, 3);
        assert!(
            html.contains("The whole timeline</a>, with its earlier updates."),
            "{html}"
        );
        assert!(!html.contains("4 updates"), "{html}");
    }
}
