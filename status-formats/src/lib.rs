//! The status answers' output formats: pure functions from `mg-domain`'s status types (the summary,
//! the notices, the history) to the bytes of an answer. `mg-status` computes the summary each round
//! and calls these to render what it keeps precomputed; nothing here reads a database, waits on a
//! runtime or holds state, and the compiler keeps it so (this crate depends on `mg-domain` alone).
//!
//! - `badge`: a component's Shields-style SVG badge.
//! - `feed`: the incidents and notices as an Atom feed.
//! - `statuspage`: the answers in Atlassian Statuspage's public JSON shape, and the status page's
//!   address (the one route fact of the status answers).
//! - `notices_html`: the operators' incidents and maintenance windows as HTML (the status page's
//!   fragment, the page that reads without JavaScript, the whole timelines' pages).
//! - `markdown`: the operators' Markdown made safe HTML, once, when an update is read.

pub mod badge;
pub mod feed;
pub mod markdown;
pub mod notices_html;
pub mod statuspage;
