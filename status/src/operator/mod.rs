//! What status operators do, as a service the HTTP routes call: open an incident, post an update,
//! schedule maintenance (`notices.rs`), edit or delete a posted update (`corrections.rs`), set a
//! component's status without an incident (`components.rs`), manage the webhooks (`webhooks.rs`),
//! and read the operator view (`view.rs`) and log (`log.rs`). Each action checks its fields (`fields.rs`), counts against the operator's write
//! rate, keeps its cap inside the statement that writes, logs who did what, and answers only
//! after its commit. The bodies the routes take and answer are in `bodies.rs`.
//!
//! Who may act is the caller's business (the route's extractor checks the role): here an operator
//! is the identity id the actions are recorded under.

pub mod bodies;
mod components;
mod corrections;
mod fields;
mod log;
mod notices;
mod view;
mod webhooks;

use mg_platform::{db::Database, error::AppError};

use crate::StatusService;

/// The operator actions of one operator, over this instance's status service and database.
#[derive(Debug, Clone, Copy)]
pub struct Operator<'a> {
    db: &'a Database,
    status: &'a StatusService,
    who: &'a str,
}

impl<'a> Operator<'a> {
    /// `who`: the operator's identity provider user id (who, in the logs and the timelines).
    pub fn new(db: &'a Database, status: &'a StatusService, who: &'a str) -> Self {
        Self { db, status, who }
    }

    /// Counts one write at `now` against the operator's rate.
    fn take_write(&self, now: i64) -> Result<(), AppError> {
        self.status
            .operator_writes
            .take_or_refuse(self.who.into(), now)
    }

    fn logged(&self, action: &str, target: &str) {
        tracing::info!(
            operator = self.who,
            action,
            target,
            "status: operator action"
        );
    }
}
