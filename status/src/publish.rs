//! The reading side of a round of checks: reload what every viewpoint stored (or, while the
//! database is away, keep the last picture with this round's checks added), close the incidents of
//! viewpoints that stopped checking, notice another process checking under this name, and compute
//! the summary and every answer on the blocking pool.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use super::{
    aggregate::floor,
    day::DayFigures,
    db_window::{off_runtime, DbWindow},
    duplicates::DuplicateInstance,
    incidents,
    render::Published,
    round::{Round, INCIDENTS_READ_LIMIT, PENDING_INCIDENTS_LIMIT},
    summary::{self, Context},
};
use crate::{
    store::StatusQueries,
    store::{
        checks::{IncidentRow, RawCheck, ROLLUP_RETENTION_MS},
        notices::{NoticeRow, NOTICE_RETENTION_MS},
    },
};
use mg_platform::{
    config::status::StatusConfig,
    db::Database,
    time::{DAY_MS, HOUR_MS},
};

/// What a refresh ended with.
#[derive(Debug)]
pub enum Refreshed {
    /// The round's answers, and the time computing them took.
    Published(Arc<Published>, Duration),
    /// Another live instance checks this database under this `INSTANCE_ID` and was there first:
    /// nothing is published, the server stops.
    Refused(DuplicateInstance),
    /// Computing the answers failed: the last ones stay.
    Kept,
}

impl Round {
    /// Reloads what every viewpoint stored and computes the answers of the round at `now_ms`,
    /// `checks` being its checks, `components` those this instance checks. When the database does
    /// not answer, the last snapshot is kept with this round's checks added, so the page shows the
    /// outage.
    pub async fn refresh(
        &mut self,
        db: &Database,
        config: &StatusConfig,
        (components, page_url): (Vec<&'static str>, &str),
        checks: &[RawCheck],
        now_ms: i64,
        window: &mut DbWindow,
    ) -> Refreshed {
        let hour = floor(now_ms, HOUR_MS);
        let since = now_ms - DAY_MS;
        self.carried.notices_read = false;
        // Only the checks stored since the last read (`raw_window`).
        let raw = self
            .raw_window
            .catch_up(&mut self.snapshot.raw, db, since, window)
            .await;
        self.raw_read = raw.unwrap_or(0);
        let incidents = match raw {
            Some(_) => {
                window
                    .run(
                        "read incidents",
                        db.status().status_incidents_since(
                            now_ms - ROLLUP_RETENTION_MS,
                            INCIDENTS_READ_LIMIT,
                        ),
                    )
                    .await
            }
            None => None,
        };
        let stored_len;
        match (raw, incidents) {
            (Some(_), Some(mut incidents)) => {
                // Checks still held in memory are part of the picture too.
                stored_len = self.add_held_checks(&[]);
                merge_incident_changes(&mut incidents, self.pending_incidents.iter());
                self.snapshot.incidents = incidents;
                // What operators wrote through any instance, read again when it changed.
                self.read_notices_if_written(db, now_ms, window).await;
                if let Some(declarations) = window
                    .run("read declarations", db.status().component_declarations())
                    .await
                {
                    self.snapshot.declarations = declarations;
                }
                if self.rollups_read_hour != Some(hour) {
                    self.read_rollups(db, hour, window).await;
                }
                // Only with every viewpoint's rows fresh from the database: during an outage the
                // others' checks are not seen, and they are not gone.
                self.close_gone_viewpoints(db, config, now_ms, window).await;
                let me = &config.instance_id;
                let interval = config.interval_ms();
                if let Some(refusal) = self.name.notice(&self.snapshot.raw, me, now_ms, interval) {
                    self.drop_held_checks(stored_len);
                    return Refreshed::Refused(refusal);
                }
            }
            _ => {
                self.snapshot.raw.retain(|c| c.checked_at >= since);
                stored_len = self.add_held_checks(checks);
                let changes: Vec<IncidentRow> = self.pending_incidents.iter().cloned().collect();
                merge_incident_changes(&mut self.snapshot.incidents, changes.iter());
            }
        }
        let refreshed = self.render(config, (components, page_url), now_ms).await;
        self.drop_held_checks(stored_len);
        refreshed
    }

    /// Reads the operators' notices and component statuses again and re-renders the answers from
    /// the last snapshot: what
    /// an operator just wrote shows at once on this instance (the others read it with their next
    /// round).
    pub async fn republish_notices(
        &mut self,
        db: &Database,
        config: &StatusConfig,
        (components, page_url): (Vec<&'static str>, &str),
        now_ms: i64,
    ) -> Result<Refreshed, sqlx::Error> {
        (self.snapshot.notices, self.snapshot.windows) = read_notices(db, now_ms).await?;
        // Written since the generation was read: the next round reads it again.
        self.carried.generation = None;
        self.snapshot.declarations = db.status().component_declarations().await?;
        let stored_len = self.add_held_checks(&[]);
        let refreshed = self.render(config, (components, page_url), now_ms).await;
        self.drop_held_checks(stored_len);
        Ok(refreshed)
    }

    /// Computes the summary and every answer from the snapshot.
    async fn render(
        &mut self,
        config: &StatusConfig,
        (components, page_url): (Vec<&'static str>, &str),
        now_ms: i64,
    ) -> Refreshed {
        // Summarising, serialising and compressing every answer is CPU work that grows with the
        // history: off the request workers, onto the blocking pool.
        let mut snapshot = std::mem::take(&mut self.snapshot);
        let mut carried = std::mem::take(&mut self.carried);
        let interval = config.interval_ms();
        let instance_id = config.instance_id.clone();
        let page_url = page_url.to_owned();
        let rendered = tokio::task::spawn_blocking(move || {
            let started = Instant::now();
            let context = Context {
                now_ms,
                interval_ms: interval,
                checked_here: &components,
                page_url: &page_url,
            };
            // The day's figures for this rendering only: `raw` changes before the next.
            let last = carried.day.take();
            snapshot.day = Some(DayFigures::build(
                snapshot.parts(),
                context.agreement_bucket_ms(),
                last,
            ));
            let summary = summary::summarize(&snapshot, &context, &instance_id);
            carried.reuse.next_round();
            let published = Arc::new(Published::new(
                &summary,
                &snapshot,
                now_ms,
                &mut carried.reuse,
            ));
            carried.day = snapshot.day.take();
            (snapshot, carried, published, started.elapsed())
        })
        .await;
        match rendered {
            Ok((snapshot, carried, published, took)) => {
                self.snapshot = snapshot;
                self.carried = carried;
                Refreshed::Published(published, took)
            }
            Err(error) => {
                // The snapshot went with the failed task: read everything again next round.
                tracing::error!(%error, "status: rendering the answers failed; the last ones stay");
                self.rollups_read_hour = None;
                self.raw_window.reset();
                Refreshed::Kept
            }
        }
    }

    /// Reads the notices the answers carry and the maintenance windows again unless the notices'
    /// generation is the one they were read at and none of them has aged out of what a read at
    /// `now_ms` would return. Either way [`Carried::notices_read`] says which it was.
    async fn read_notices_if_written(&mut self, db: &Database, now_ms: i64, window: &mut DbWindow) {
        let Some(generation) = window
            .run(
                "read the notices' generation",
                db.status().notices_generation(),
            )
            .await
        else {
            return;
        };
        let since = now_ms - NOTICE_RETENTION_MS;
        let aged = self
            .snapshot
            .notices
            .iter()
            .any(|(row, _)| row.resolved_at.is_some() && row.updated_at < since)
            || self
                .snapshot
                .windows
                .iter()
                .any(|row| row.ends_at.is_some_and(|end| end < since));
        if self.carried.generation == Some(generation) && !aged {
            return;
        }
        if let Some((notices, windows)) = window.run("read notices", read_notices(db, now_ms)).await
        {
            self.snapshot.notices = notices;
            self.snapshot.windows = windows;
            self.carried.generation = Some(generation);
            self.carried.notices_read = true;
        }
    }

    /// Reads 90 days of the hours' combined and agreed rollups into the snapshot (kept for the
    /// rest of `hour`): as many rows however many viewpoints checked, or are gone.
    async fn read_rollups(&mut self, db: &Database, hour: i64, window: &mut DbWindow) {
        let from = hour - ROLLUP_RETENTION_MS;
        let reader = db.clone();
        let hourly = window
            .run(
                "read hourly rollups",
                off_runtime(async move { reader.status().history_rollups_since(from).await }),
            )
            .await;
        if let Some(hourly) = hourly {
            self.snapshot.hourly = hourly;
            self.rollups_read_hour = Some(hour);
        }
    }

    /// Ends the open incidents of other viewpoints that stopped checking (see
    /// [`incidents::expire_gone`]); the change is stored now or, failing that, with the next round.
    async fn close_gone_viewpoints(
        &mut self,
        db: &Database,
        config: &StatusConfig,
        now_ms: i64,
        window: &mut DbWindow,
    ) {
        let closed = incidents::expire_gone(
            &self.snapshot.incidents,
            &self.snapshot.raw,
            &config.instance_id,
            now_ms,
            config.interval_ms(),
        );
        if closed.is_empty() {
            return;
        }
        for incident in &closed {
            tracing::info!(
                component = %incident.component,
                viewpoint = %incident.instance_id,
                "status: closing an incident of a viewpoint that stopped checking"
            );
        }
        merge_incident_changes(&mut self.snapshot.incidents, closed.iter());
        self.pending_incidents.extend(closed);
        while self.pending_incidents.len() > PENDING_INCIDENTS_LIMIT {
            self.pending_incidents.pop_front();
        }
        self.write_pending_incidents(db, window).await;
    }
}

/// The notices the answers carry at `now_ms` and the maintenance windows of the last 90 days:
/// reads bounded by the open notices and a few recent ones, however many are kept.
async fn read_notices(
    db: &Database,
    now_ms: i64,
) -> Result<(Vec<super::notices::StoredNotice>, Vec<NoticeRow>), sqlx::Error> {
    let since = now_ms - NOTICE_RETENTION_MS;
    let store = db.status();
    Ok((
        store.current_notices(since).await?,
        store.windows_since(since).await?,
    ))
}

/// Applies incident changes not yet stored to incidents read from the database.
fn merge_incident_changes<'a>(
    incidents: &mut Vec<IncidentRow>,
    changes: impl Iterator<Item = &'a IncidentRow>,
) {
    for change in changes {
        match incidents.iter_mut().find(|i| {
            i.component == change.component
                && i.instance_id == change.instance_id
                && i.started_at == change.started_at
        }) {
            Some(stored) => stored.ended_at = change.ended_at,
            None => incidents.push(change.clone()),
        }
    }
}
