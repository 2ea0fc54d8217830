//! A component's status set by operators on its own, without an incident (Statuspage's component
//! status): in force until set again or cleared, and combined with what the checks measure by the
//! one rule of `mg_domain::component_status` (the worse wins, so it can say more than the checks
//! see, never hide what they see). Like an incident's declaration it sends no webhook of its own.

use mg_domain::component_status::ComponentStatus;
use mg_platform::{error::AppError, time::now_ms};

use super::{
    bodies::{ComponentSetting, SetComponentStatus},
    fields::invalid,
    Operator,
};
use crate::store::StatusQueries;

impl Operator<'_> {
    /// Sets (or with `None` clears) the status of the component `id`; what is set and what the
    /// page shows now.
    pub async fn set_component_status(
        &self,
        id: &str,
        body: SetComponentStatus,
    ) -> Result<ComponentSetting, AppError> {
        if !self.view_components().iter().any(|(known, _)| known == id) {
            return Err(AppError::NotFound);
        }
        if body.status == Some(ComponentStatus::UnderMaintenance) {
            return Err(invalid(
                "A component is under maintenance only during a window: schedule a maintenance window.",
            ));
        }
        let now = now_ms();
        self.take_write(now)?;
        let stored = self
            .db
            .status()
            .declare_component(id, body.status, now, self.who)
            .await?;
        if stored.is_none() {
            return Err(invalid(
                "Another operator set this component's status at the same moment: look again.",
            ));
        }
        let action = match body.status {
            Some(status) => format!("set component status ({status})"),
            None => "clear component status".to_owned(),
        };
        self.logged(&action, id);
        if let Err(error) = self.status.republish_notices(now).await {
            tracing::warn!(%error, "status: the answers are re-rendered with the next round");
        }
        let published = self.status.published();
        let shown = published
            .page_summary()
            .components
            .iter()
            .find(|c| c.id == id);
        Ok(ComponentSetting {
            id: id.to_owned(),
            set: body.status,
            status: shown.and_then(|c| c.status),
            status_source: shown.and_then(|c| c.status_source.clone()),
        })
    }
}
