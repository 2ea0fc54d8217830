//! The status page (/apotheosis, spec 4): one round of checks every 30 000 ms, and every word and
//! figure the page shows.
//!
//! A round is the spec's two checks (`/health`, `/db-health`), the queue URL when one is known, and
//! one request for the server's status (`/api/status/page`: the summary with each component's
//! 90-day and 24-hour series). The first round downloads the page; later rounds revalidate it with
//! the server's `ETag` (a 304 changes nothing) and ask only for the buckets from the last answer's
//! `updated_at` on, which are merged into what the machine holds. The page renders [`StatusView`].
//!
//! The same rounds ask for the operators' posts (`notices`: with the first round, every two minutes
//! and at once after a post), so the page has one schedule of requests and no other timer.
//!
//! One job a file: `wire` (the server's answers and the series kept from them), `machine` (rounds
//! and answers), `view` (what the page renders), `compose` (the view built from what the machine
//! knows), `wording` (numbers, dates and durations in words), `url` (the status request's URL).

mod compose;
mod machine;
mod notices;
mod url;
mod view;
mod wire;
mod wording;

pub use machine::{RoundPlan, StatusPageMachine};
pub use view::{
    CardView, DayBar, HistoryView, IncidentView, LatencyRow, LiveValue, StatusView, Tone,
    UptimeCell,
};
pub use wire::{PageAnswer, DAYS, RECENT_BUCKETS};

// Host only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests_server;
