//! The status page's outgoing webhooks: the words of their formats and of their deliveries'
//! states, shared by the server's queue, its answers and the operator view.

crate::vocabulary! {
    /// What a webhook's bodies look like: the whole event as JSON, or one message for Slack's or
    /// Discord's incoming webhooks.
    #[cfg_attr(feature = "ts-rs", derive(ts_rs::TS))]
    pub enum WebhookFormat("webhook format") {
        Json = "json" => "JSON",
        Slack = "slack" => "Slack",
        Discord = "discord" => "Discord",
    }
}

crate::vocabulary! {
    /// Where a delivery is: waiting for its (next) attempt, delivered (a 2xx answer), failed (every
    /// attempt failed, or its webhook was deleted), or held (a component change inside a
    /// maintenance window: logged, never sent).
    #[cfg_attr(feature = "ts-rs", derive(ts_rs::TS))]
    pub enum DeliveryState("delivery state") {
        Pending = "pending",
        Delivered = "delivered",
        Failed = "failed",
        Held = "held",
    }
}

/// The key a receiver de-duplicates on is the delivery's id; the queue keeps one delivery per
/// event and webhook under this key (`notice:<id>:<seq>`, `component:<id>:<seq>`).
pub fn event_key(source: EventSource<'_>) -> String {
    match source {
        EventSource::NoticeUpdate { notice_id, seq } => format!("notice:{notice_id}:{seq}"),
        EventSource::ComponentChange { component, seq } => format!("component:{component}:{seq}"),
    }
}

/// What an event is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventSource<'a> {
    NoticeUpdate { notice_id: &'a str, seq: i64 },
    ComponentChange { component: &'a str, seq: i64 },
}
