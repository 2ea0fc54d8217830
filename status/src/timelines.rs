//! The notices' whole timelines, a page at a time (`GET /status/notices?from=<id>`): the answers
//! carry each notice's newest update only, so a timeline's older updates are read here, from the
//! database, when a page is first asked after a round, and kept with that round's answers
//! (compressed once), so a page costs one read of at most two notices per round however often
//! it is asked.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use super::{
    notices::notice_at,
    render::{Published, ReadyAnswer, TimelinePages, CACHE_JSON, HTML},
    StatusService,
};
use crate::store::StatusQueries;
use mg_status_formats::notices_html::timeline_page;

/// Pages kept per round at most (the first ones asked); later ones are made per request.
pub const PAGES_KEPT: usize = 32;

impl StatusService {
    /// The timelines' page from the notice `from` on (empty: the newest), as of the last round;
    /// `None` when `from` names no notice kept.
    pub async fn timeline_page(&self, from: &str) -> Result<Option<ReadyAnswer>, sqlx::Error> {
        let published = self.published();
        if let Some(page) = self.kept_page(&published, from) {
            return Ok(Some(page));
        }
        let page = self
            .db
            .status()
            .notice_page((!from.is_empty()).then_some(from))
            .await?;
        if !from.is_empty() && page.notices.is_empty() {
            return Ok(None);
        }
        let now = mg_platform::time::now_ms();
        let notices: Vec<_> = page.notices.iter().map(|n| notice_at(n, now)).collect();
        let answer = ReadyAnswer::new(
            timeline_page(&notices, page.next.as_deref()),
            HTML,
            CACHE_JSON,
        );
        let mut kept = lock(&self.timelines);
        if kept.are_of(&published) && kept.pages.len() < PAGES_KEPT {
            kept.pages.insert(from.to_owned(), answer.clone());
        }
        Ok(Some(answer))
    }

    /// The page kept for `published`'s round, if made; forgets the pages of an earlier round.
    fn kept_page(&self, published: &Arc<Published>, from: &str) -> Option<ReadyAnswer> {
        let mut kept = lock(&self.timelines);
        if !kept.are_of(published) {
            *kept = TimelinePages {
                round: Arc::downgrade(published),
                pages: HashMap::new(),
            };
        }
        kept.pages.get(from).cloned()
    }
}

fn lock(pages: &Mutex<TimelinePages>) -> std::sync::MutexGuard<'_, TimelinePages> {
    match pages.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}
