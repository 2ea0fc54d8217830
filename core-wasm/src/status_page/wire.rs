//! What the server sends, and what the machine keeps of it between answers.
//!
//! The page's answer is mg-domain's `PageBody`, the type the server serialises. Its types read with
//! `#[serde(default)]`: a field the page does not find reads as its default, so an answer with
//! fields added or left out still reads. The series are kept per component and merged bucket by
//! bucket, so an incremental answer (only the newest buckets) updates what an earlier one gave.

pub use mg_domain::status::{
    ComponentSummary, Incident, PageBody as PageAnswer, PageHistory, Point, Summary,
};

/// Daily bars on the page, the last one today (UTC).
pub const DAYS: usize = 90;
/// 15-minute buckets of the latency chart (24 hours).
pub const RECENT_BUCKETS: usize = 96;

/// Held history of one component, oldest bucket first. (Vectors, not maps: a `BTreeMap` would
/// add about 4 KB gzip to the .wasm, for at most 96 entries.)
#[derive(Debug, Clone, Default)]
pub struct Held {
    pub component: String,
    pub daily: Vec<Point>,
    pub recent: Vec<Point>,
}

/// Merges an answer's series into `held`: bucket by bucket into what is held when the answer is
/// `incremental`, else in place of it. Components the summary no longer lists are dropped.
pub fn merge(
    held: &mut Vec<Held>,
    history: Vec<PageHistory>,
    incremental: bool,
    components: &[ComponentSummary],
) {
    if !incremental {
        held.clear();
    }
    for series in history {
        let at = match held.iter().position(|h| h.component == series.component) {
            Some(at) => at,
            None => {
                held.push(Held {
                    component: series.component,
                    ..Held::default()
                });
                held.len() - 1
            }
        };
        let kept = &mut held[at];
        put(&mut kept.daily, series.daily.points, DAYS);
        put(&mut kept.recent, series.recent.points, RECENT_BUCKETS);
    }
    held.retain(|kept| components.iter().any(|c| c.id == kept.component));
}

/// Merges `points` into `held` by bucket start (the server's RFC 3339 times sort as text) and
/// keeps the newest `keep`.
fn put(held: &mut Vec<Point>, points: Vec<Point>, keep: usize) {
    for point in points {
        match held.binary_search_by(|p| p.start.as_str().cmp(point.start.as_str())) {
            Ok(at) => held[at] = point,
            Err(at) => held.insert(at, point),
        }
    }
    let extra = held.len().saturating_sub(keep);
    held.drain(..extra);
}
