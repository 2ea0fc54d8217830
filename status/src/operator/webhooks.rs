//! The webhooks operators manage: list, add (the address vetted, the signing secret made and
//! answered once), delete, and the delivery log.

use mg_platform::{
    error::AppError,
    random::random_hex,
    time::{now_ms, rfc3339, DAY_MS},
};

use super::{
    bodies::{AddWebhook, AddedWebhook, Delivery, DeliveryLog, Webhook, WebhookList},
    fields::{invalid, text},
    Operator,
};
use crate::{
    store::{deliveries::DeliveryRow, webhooks::WebhookRow, StatusQueries},
    webhooks::{
        guard, DELIVERIES_READ, DELIVERY_RETENTION_MS, MAX_NAME_CHARS, MAX_URL_CHARS, MAX_WEBHOOKS,
    },
};
use mg_domain::webhooks::DeliveryState;
use mg_domain::webhooks::WebhookFormat;

impl Operator<'_> {
    /// The live webhooks (never their secrets) and the bounds.
    pub async fn webhooks(&self) -> Result<WebhookList, AppError> {
        let webhooks = self
            .db
            .status()
            .live_webhooks()
            .await?
            .into_iter()
            .map(listed)
            .collect();
        Ok(WebhookList {
            webhooks,
            max_webhooks: MAX_WEBHOOKS,
            max_url_chars: MAX_URL_CHARS,
            max_name_chars: MAX_NAME_CHARS,
            formats: WebhookFormat::ALL
                .iter()
                .map(|f| (*f, f.words().to_owned()))
                .collect(),
        })
    }

    /// Adds a webhook (refused inside the statement when [`MAX_WEBHOOKS`] are live); the webhook
    /// and its signing secret, which is answered this once.
    pub async fn add_webhook(&self, body: AddWebhook) -> Result<AddedWebhook, AppError> {
        let url = guard::parse(&body.url).map_err(|message| invalid(&message))?;
        let name = match &body.name {
            Some(name) if !name.trim().is_empty() => text(name, "The name", MAX_NAME_CHARS, false)?,
            _ => url.host_str().unwrap_or_default().to_owned(),
        };
        guard::vet(&url, self.status.webhooks.allow_private())
            .await
            .map_err(|message| invalid(&message))?;
        let now = now_ms();
        self.take_write(now)?;
        let secret = random_hex::<32>();
        let row = WebhookRow {
            id: random_hex::<16>(),
            name,
            url: url.to_string(),
            format: body.format,
            secret: secret.clone(),
            created_at: now,
            created_by: self.who.to_owned(),
            deleted_at: None,
            deleted_by: None,
        };
        if !self.db.status().insert_webhook(&row, MAX_WEBHOOKS).await? {
            return Err(invalid(&format!(
                "There are {MAX_WEBHOOKS} webhooks (the most): delete one first."
            )));
        }
        self.logged("add webhook", &row.id);
        Ok(AddedWebhook {
            webhook: listed(row),
            secret,
        })
    }

    /// Deletes the live webhook `id`; its pending deliveries are never sent.
    pub async fn delete_webhook(&self, id: &str) -> Result<(), AppError> {
        let now = now_ms();
        self.take_write(now)?;
        let store = self.db.status();
        if !store.delete_webhook(id, self.who, now).await? {
            return Err(AppError::NotFound);
        }
        self.logged("delete webhook", id);
        // Its pending deliveries are never claimed again; the log says so from the next prune on.
        if let Err(error) = store.fail_orphaned_deliveries(now).await {
            tracing::warn!(%error, "webhooks: the deleted webhook's deliveries end at the next prune");
        }
        Ok(())
    }

    /// The latest deliveries, newest first.
    pub async fn deliveries(&self) -> Result<DeliveryLog, AppError> {
        let deliveries = self
            .db
            .status()
            .delivery_log(DELIVERIES_READ)
            .await?
            .into_iter()
            .map(delivery)
            .collect();
        Ok(DeliveryLog {
            deliveries,
            kept_days: DELIVERY_RETENTION_MS / DAY_MS,
        })
    }
}

fn listed(row: WebhookRow) -> Webhook {
    Webhook {
        format: row.format,
        created_at: rfc3339(row.created_at),
        id: row.id,
        name: row.name,
        url: masked(&row.url),
        created_by: row.created_by,
    }
}

/// A stored URL as operators see it: its scheme and host, and of the rest only the last four
/// characters. A chat service's webhook URL is its credential (anyone holding it posts to the
/// channel), so once saved it is shown to no one, the operator who added it included.
fn masked(url: &str) -> String {
    let Ok(parsed) = url::Url::parse(url) else {
        return "…".to_owned();
    };
    let origin = parsed.origin().ascii_serialization();
    let rest = &url[url.len().min(origin.len())..];
    let tail: String = rest
        .chars()
        .rev()
        .take(4)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    if rest.chars().count() <= 4 {
        format!("{origin}{rest}")
    } else {
        format!("{origin}/…{tail}")
    }
}

fn delivery(row: DeliveryRow) -> Delivery {
    Delivery {
        next_attempt_at: (row.state == DeliveryState::Pending).then(|| rfc3339(row.next_at)),
        id: row.id,
        event: row.event,
        webhook_id: row.webhook_id,
        webhook_name: row.webhook_name,
        state: row.state,
        attempts: row.attempts,
        last_status: row.last_status,
        last_error: row.last_error,
        created_at: rfc3339(row.created_at),
        updated_at: rfc3339(row.updated_at),
    }
}

#[cfg(test)]
mod tests {
    use super::masked;

    #[test]
    fn a_saved_url_shows_its_host_and_four_characters() {
        assert_eq!(
            masked("https://hooks.slack.com/services/T000/B000/XXXXsecretabcd"),
            "https://hooks.slack.com/…abcd"
        );
        assert_eq!(masked("https://example.com/"), "https://example.com/");
        assert_eq!(
            masked("http://127.0.0.1:9/hook"),
            "http://127.0.0.1:9/…hook"
        );
    }
}
