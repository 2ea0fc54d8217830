//! `GET /status/feed.atom`: the incidents of the last 90 days as an Atom feed (RFC 4287).

use mg_domain::status::Summary;

use super::summary::incident_span;
use crate::html::escape;

/// The feed's id; entries are `{FEED_ID}/incident/{component}/{start ms}`.
const FEED_ID: &str = "tag:mg-web,2026:status";

/// The feed document.
pub fn render(summary: &Summary) -> String {
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
        .map_or_else(|| summary.updated_at.clone(), crate::time::rfc3339);
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n\
         <title>mg-web status: incidents</title>\n<subtitle>Outages of the API, the database and the \
         queue as this deployment's checks saw them.</subtitle>\n<id>{FEED_ID}</id>\n\
         <link rel=\"self\" type=\"application/atom+xml\" href=\"/status/feed.atom\"/>\n\
         <link rel=\"alternate\" type=\"text/html\" href=\"/apotheosis\"/>\n\
         <updated>{updated}</updated>\n<author><name>mg-web status</name></author>\n"
    );
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
             <link rel=\"alternate\" type=\"text/html\" href=\"/apotheosis\"/>\n\
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
