//! `GET /status/feed.atom`: the incidents of the last 90 days as an Atom feed (RFC 4287): the
//! operators' incidents and maintenance windows with their timelines, and the checks' incidents.

use mg_domain::{
    notices::{Notice, NoticeKind},
    status::Summary,
};

use super::{statuspage::origin, summary::incident_span};
use mg_platform::html::escape;

/// The feed's id; entries are `{FEED_ID}/incident/{component}/{start ms}`.
const FEED_ID: &str = "tag:mg-web,2026:status";

/// The feed document. Every link in it is absolute, on the deployment's public origin (a feed is
/// read away from the site); the ids are `tag:` URIs, absolute and the same on every origin.
pub fn render(summary: &Summary) -> String {
    let page_url = escape(&summary.page_url);
    let feed_url = escape(&format!("{}/status/feed.atom", origin(summary)));
    let incidents: Vec<_> = summary
        .open_incidents
        .iter()
        .chain(&summary.recent_incidents)
        .collect();
    let updated = incidents
        .iter()
        .map(|i| {
            let (started, ended) = incident_span(i);
            ended.unwrap_or(started)
        })
        .max()
        .map(mg_platform::time::rfc3339)
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
    for notice in &summary.notices {
        out.push_str(&notice_entry(notice, &page_url));
    }
    for incident in incidents {
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
        out.push_str(&format!(
            "<entry>\n<title>{}</title>\n<id>{FEED_ID}/incident/{}/{}</id>\n\
             <link rel=\"alternate\" type=\"text/html\" href=\"{page_url}\"/>\n\
             <published>{}</published>\n<updated>{}</updated>\n<summary>{}</summary>\n</entry>\n",
            escape(&title),
            escape(&incident.component),
            incident_span(incident).0,
            incident.started_at,
            incident.ended_at.as_ref().unwrap_or(&incident.started_at),
            escape(&text),
        ));
    }
    out.push_str("</feed>\n");
    out
}

/// One entry per update of an operator's notice, newest first (a subscriber hears each step: an
/// incident's updates, a window scheduled, started and ended); its content is that update, with
/// the window's times and the component status the notice declares, as HTML (escaped into the
/// feed's text).
fn notice_entry(notice: &Notice, page_url: &str) -> String {
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
    let mut out = String::new();
    for update in &notice.updates {
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
        out.push_str(&format!(
            "<entry>\n<title>{}</title>\n<id>{FEED_ID}/notice/{}/{}</id>\n\
             <link rel=\"alternate\" type=\"text/html\" href=\"{page_url}\"/>\n\
             <published>{}</published>\n<updated>{}</updated>\n<content type=\"html\">{}</content>\n</entry>\n",
            escape(&title),
            escape(&notice.id),
            update.seq,
            update.created_at,
            update.created_at,
            escape(&html),
        ));
    }
    out
}
