//! `GET /status/feed.atom`: the incidents of the last 90 days as an Atom feed (RFC 4287): the
//! operators' incidents and maintenance windows with their timelines, and the checks' incidents.

use mg_domain::{
    notices::{Notice, NoticeKind},
    status::Summary,
};

use crate::statuspage::origin;
use mg_domain::html::escape;

/// The feed's id; entries are `{FEED_ID}/incident/{component}/{start ms}`.
const FEED_ID: &str = "tag:mg-web,2026:status";

/// The feed document, its entries newest first by their `<updated>` time (an update's is when it
/// was posted, or its latest correction; a checks' incident's when it ended, or began). Every link
/// in it is absolute, on the deployment's public origin (a feed is read away from the site); the
/// ids are `tag:` URIs, absolute and the same on every origin.
pub fn render(summary: &Summary) -> String {
    let page_url = escape(&summary.page_url);
    let feed_url = escape(&format!("{}/status/feed.atom", origin(summary)));
    // (updated, entry): RFC 3339 times of one form, so their text sorts as the times do.
    let mut entries: Vec<(String, String)> = summary
        .notices
        .iter()
        .flat_map(|notice| notice_entries(notice, &page_url))
        .collect();
    for incident in summary
        .open_incidents
        .iter()
        .chain(&summary.recent_incidents)
    {
        let title = match &incident.ended_at {
            Some(_) => format!("{} was unavailable (resolved)", incident.component_name),
            None => format!("{} is unavailable", incident.component_name),
        };
        let mut text = format!("Started {}. {}", incident.started_at, incident.first_error);
        match &incident.ended_at {
            Some(end) => text.push_str(&format!(" Resolved {end}.")),
            None => text.push_str(" Ongoing."),
        }
        text.push_str(&format!(" Seen from: {}.", incident.viewpoints.join(", ")));
        let updated = incident.ended_at.as_ref().unwrap_or(&incident.started_at);
        entries.push((
            updated.clone(),
            format!(
                "<entry>\n<title>{}</title>\n<id>{FEED_ID}/incident/{}/{}</id>\n\
                 <link rel=\"alternate\" type=\"text/html\" href=\"{page_url}\"/>\n\
                 <published>{}</published>\n<updated>{updated}</updated>\n\
                 <summary>{}</summary>\n</entry>\n",
                escape(&title),
                escape(&incident.component),
                incident.span().0,
                incident.started_at,
                escape(&text),
            ),
        ));
    }
    entries.sort_by(|a, b| b.0.cmp(&a.0));
    let updated = entries
        .first()
        .map(|(at, _)| at.clone())
        .into_iter()
        .chain(summary.notices.iter().map(|n| n.updated_at.clone()))
        .max()
        .unwrap_or_else(|| summary.updated_at.clone());
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n\
         <title>mg-web status: incidents</title>\n<subtitle>Outages of the API, the database and the \
         queue as this deployment's checks saw them.</subtitle>\n<id>{FEED_ID}</id>\n\
         <link rel=\"self\" type=\"application/atom+xml\" href=\"{feed_url}\"/>\n\
         <link rel=\"alternate\" type=\"text/html\" href=\"{page_url}\"/>\n\
         <updated>{updated}</updated>\n<author><name>mg-web status</name></author>\n"
    );
    for (_, entry) in entries {
        out.push_str(&entry);
    }
    out.push_str("</feed>\n");
    out
}

/// One entry per update of an operator's notice (a subscriber hears each step: an incident's
/// updates, a window scheduled, started and ended), each with its `<updated>` time: when it was
/// posted, or corrected last. Its content is that update, with the window's times and the
/// component status the notice declares, as HTML (escaped into the feed's text).
fn notice_entries(notice: &Notice, page_url: &str) -> Vec<(String, String)> {
    let kind = match notice.kind {
        NoticeKind::Incident => "Incident",
        NoticeKind::Maintenance => "Maintenance",
    };
    let mut context = String::new();
    if let Some(status) = notice.component_status {
        let names = notice.components.join(", ");
        context.push_str(&format!("<p>{}: {}.</p>", escape(&names), status.words()));
    }
    if let (Some(start), Some(end)) = (&notice.starts_at, &notice.ends_at) {
        context.push_str(&format!("<p>Window: {start} to {end}.</p>"));
    }
    notice
        .updates
        .iter()
        .map(|update| {
            let title = format!(
                "{kind}: {} ({})",
                notice.title,
                update.status.as_str().replace('_', " ")
            );
            let html = format!(
                "{context}<p><strong>{}</strong> {}</p>{}",
                update.status.as_str().replace('_', " "),
                update.created_at,
                update.body_html
            );
            let updated = update.edited_at.as_ref().unwrap_or(&update.created_at);
            let entry = format!(
                "<entry>\n<title>{}</title>\n<id>{FEED_ID}/notice/{}/{}</id>\n\
                 <link rel=\"alternate\" type=\"text/html\" href=\"{page_url}\"/>\n\
                 <published>{}</published>\n<updated>{updated}</updated>\n\
                 <content type=\"html\">{}</content>\n</entry>\n",
                escape(&title),
                escape(&notice.id),
                update.seq,
                update.created_at,
                escape(&html),
            );
            (updated.clone(), entry)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use mg_domain::notices::NoticeUpdate;

    use super::*;

    fn update(seq: i64, created_at: &str, edited_at: Option<&str>) -> NoticeUpdate {
        NoticeUpdate {
            seq,
            created_at: created_at.into(),
            edited_at: edited_at.map(Into::into),
            body_html: format!("<p>{seq}</p>"),
            ..NoticeUpdate::default()
        }
    }

    /// The (id, updated) of each entry, in the feed's order.
    fn entries(feed: &str) -> Vec<(String, String)> {
        feed.split("<entry>")
            .skip(1)
            .map(|entry| {
                let between = |open: &str, close: &str| {
                    let from = entry.find(open).expect(open) + open.len();
                    entry[from..from + entry[from..].find(close).expect(close)].to_owned()
                };
                (
                    between("<id>", "</id>").replace("tag:mg-web,2026:status/", ""),
                    between("<updated>", "</updated>"),
                )
            })
            .collect()
    }

    #[test]
    fn entries_are_newest_first_across_notices_and_a_correction_moves_its_updated_time() {
        let older = Notice {
            id: "a".into(),
            updates: vec![
                update(2, "2026-11-27T10:30:00.000Z", None),
                update(
                    1,
                    "2026-11-27T10:00:00.000Z",
                    Some("2026-11-27T12:00:00.000Z"),
                ),
            ],
            ..Notice::default()
        };
        let newer = Notice {
            id: "b".into(),
            updates: vec![update(1, "2026-11-27T11:00:00.000Z", None)],
            ..Notice::default()
        };
        let summary = Summary {
            page_url: "https://mg.example/apotheosis".into(),
            notices: vec![newer, older],
            ..Summary::default()
        };
        let feed = render(&summary);
        assert_eq!(
            entries(&feed),
            [
                (
                    "notice/a/1".to_owned(),
                    "2026-11-27T12:00:00.000Z".to_owned()
                ),
                (
                    "notice/b/1".to_owned(),
                    "2026-11-27T11:00:00.000Z".to_owned()
                ),
                (
                    "notice/a/2".to_owned(),
                    "2026-11-27T10:30:00.000Z".to_owned()
                ),
            ],
            "{feed}"
        );
        assert!(
            feed.contains("<published>2026-11-27T10:00:00.000Z</published>"),
            "a correction keeps the time it was published"
        );
        assert!(
            feed.contains("<updated>2026-11-27T12:00:00.000Z</updated>\n<author>"),
            "the feed's own updated time is its newest entry's"
        );
    }
}
