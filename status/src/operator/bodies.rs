//! The bodies of the operator endpoints: what they take (`deny_unknown_fields`: a misspelt field is
//! a 400, not silently ignored) and what they answer. Their TypeScript declarations are generated
//! from these (the server's HTTP contract test, with the `ts-rs` feature).

use mg_domain::{
    component_status::ComponentStatus,
    notices::{Impact, NoticeKind, NoticeStatus},
    webhooks::{DeliveryState, WebhookFormat},
};
use serde::{Deserialize, Serialize};

/// A body an endpoint answers: serialized, and declared in TypeScript under its own name.
macro_rules! answer {
    ($(#[$doc:meta])* pub struct $name:ident $fields:tt) => {
        $(#[$doc])*
        #[derive(Debug, Serialize)]
        #[cfg_attr(feature = "ts-rs", derive(ts_rs::TS))]
        pub struct $name $fields
    };
}

/// A body an endpoint takes (`pub struct Name as "NameInTypeScript" { ... }`): a misspelt or
/// unknown field is a 400, and its TypeScript declaration is named as given (`...Request`).
macro_rules! request {
    ($(#[$doc:meta])* pub struct $name:ident as $ts:tt $fields:tt) => {
        $(#[$doc])*
        #[derive(Debug, Deserialize)]
        #[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = $ts))]
        #[serde(deny_unknown_fields)]
        pub struct $name $fields
    };
}

answer! {
    /// `GET /api/status/operator`: what the operator view needs.
    pub struct OperatorView {
        pub operator: String,
        /// `(id, name)` of the components an incident or window may name.
        pub components: Vec<(String, String)>,
        /// The checks' incidents an incident may be attached to (open and recent ones' ids).
        pub check_incidents: Vec<String>,
        /// The incidents and windows still open, which can take updates.
        pub open_notices: Vec<OpenNotice>,
        pub limits: OperatorLimits,
        /// The words each field may hold and the words the forms show for them, in the order they are
        /// offered: an incident's statuses (the first three open one), a window's, the impacts of an
        /// incident, and the component statuses an incident may declare.
        pub incident_statuses: Vec<(NoticeStatus, String)>,
        pub window_statuses: Vec<(NoticeStatus, String)>,
        pub impacts: Vec<(Impact, String)>,
        pub component_statuses: Vec<(ComponentStatus, String)>,
        /// The incidents and windows the page lists, with each update's text as posted (Markdown),
        /// so that the view can correct them (`PATCH`/`DELETE .../updates/{seq}`).
        pub posted: Vec<PostedNotice>,
        /// The status operators set on each component by itself, without an incident (`None`: the
        /// checks' measure), for every component the view offers.
        pub component_settings: Vec<(String, Option<ComponentStatus>)>,
    }
}

answer! {
    /// A notice as the operator view lists it for corrections.
    pub struct PostedNotice {
        pub id: String,
        pub kind: NoticeKind,
        pub title: String,
        /// Newest first.
        pub updates: Vec<PostedUpdate>,
    }
}

answer! {
    pub struct PostedUpdate {
        pub seq: i64,
        pub status: NoticeStatus,
        /// The text as posted or last corrected (Markdown).
        pub body: String,
        pub created_at: String,
        pub author: String,
        /// Why it cannot be deleted (in the page's words), or `None` when it can.
        pub kept: Option<String>,
    }
}

answer! {
    pub struct OpenNotice {
        pub id: String,
        pub kind: NoticeKind,
        pub title: String,
    }
}

answer! {
    pub struct OperatorLimits {
        pub title_chars: usize,
        pub body_chars: usize,
        pub updates_per_notice: i64,
        pub open_notices: i64,
    }
}

request! {
    /// `POST /api/status/incidents`.
    pub struct OpenIncident as "OpenIncidentRequest" {
        pub title: String,
        pub impact: Impact,
        pub components: Vec<String>,
        pub status: NoticeStatus,
        /// The first update's text (Markdown).
        pub body: String,
        /// The id of an incident the checks opened, to attach this one to.
        #[serde(default)]
        #[cfg_attr(feature = "ts-rs", ts(optional = nullable))]
        pub check_incident: Option<String>,
        /// The status it declares for its components while it is open (`mg_domain::component_status`).
        #[serde(default)]
        #[cfg_attr(feature = "ts-rs", ts(optional = nullable))]
        pub component_status: Option<ComponentStatus>,
    }
}

request! {
    /// `POST /api/status/maintenances`.
    pub struct ScheduleMaintenance as "ScheduleMaintenanceRequest" {
        pub title: String,
        pub components: Vec<String>,
        /// RFC 3339 UTC (`2026-11-29T02:00:00Z`).
        pub starts_at: String,
        pub ends_at: String,
        pub body: String,
    }
}

request! {
    /// `POST /api/status/{incidents,maintenances}/{id}/updates`.
    pub struct PostUpdate as "NoticeUpdateRequest" {
        pub status: NoticeStatus,
        pub body: String,
        /// An incident's update may declare a new status for its components (absent: the last one
        /// declared stays). A window's may not: a window in progress is `under_maintenance` by itself.
        #[serde(default)]
        #[cfg_attr(feature = "ts-rs", ts(optional = nullable))]
        pub component_status: Option<ComponentStatus>,
    }
}

request! {
    /// `PATCH /api/status/{incidents,maintenances}/{id}/updates/{seq}`: the update's corrected text.
    /// Its status and declared component status stay as posted.
    pub struct EditUpdate as "NoticeUpdateEditRequest" {
        pub body: String,
    }
}

request! {
    /// `PATCH /api/status/components/{id}`: the status operators set on the component by itself,
    /// without an incident; `null` clears it (the checks' measure shows). The field is required: an
    /// empty body is a 400 that changes nothing, so clearing takes an explicit `null` (serde would
    /// otherwise read a missing `Option` as `None`).
    pub struct SetComponentStatus as "ComponentStatusRequest" {
        #[serde(deserialize_with = "Option::deserialize")]
        pub status: Option<ComponentStatus>,
    }
}

answer! {
    /// The answer of `PATCH /api/status/components/{id}`: what operators set on the component and
    /// what the page shows for it now (`mg_domain::component_status`'s rule; `None` before any check).
    pub struct ComponentSetting {
        pub id: String,
        pub set: Option<ComponentStatus>,
        pub status: Option<ComponentStatus>,
        /// `declared` or `maintenance` when the shown status is not the checks' measure.
        pub status_source: Option<String>,
    }
}

answer! {
    /// `GET /api/status/operator/log`: the latest operator actions, newest first.
    pub struct OperatorLog {
        pub entries: Vec<OperatorAction>,
    }
}

answer! {
    pub struct OperatorAction {
        pub at: String,
        pub operator: String,
        pub action: String,
        pub target: String,
        /// An edited or deleted update's text before the change.
        pub old_text: Option<String>,
    }
}

request! {
    /// `POST /api/status/webhooks`.
    pub struct AddWebhook as "AddWebhookRequest" {
        pub url: String,
        pub format: WebhookFormat,
        /// A label for the list and the delivery log (default: the URL's host).
        #[serde(default)]
        #[cfg_attr(feature = "ts-rs", ts(optional = nullable))]
        pub name: Option<String>,
    }
}

answer! {
    /// A webhook as listed (never its secret).
    pub struct Webhook {
        pub id: String,
        pub name: String,
        pub url: String,
        pub format: WebhookFormat,
        pub created_at: String,
        pub created_by: String,
    }
}

answer! {
    /// `POST /api/status/webhooks` answers 201 with the webhook and its signing secret, shown this
    /// once: 64 hex digits, the HMAC-SHA256 key of the `X-MG-Signature` header.
    pub struct AddedWebhook {
        pub webhook: Webhook,
        pub secret: String,
    }
}

answer! {
    /// `GET /api/status/webhooks`.
    pub struct WebhookList {
        pub webhooks: Vec<Webhook>,
        /// Live webhooks at most.
        pub max_webhooks: i64,
        pub max_url_chars: usize,
        pub max_name_chars: usize,
        /// The formats a webhook may have, with the words the form shows for them.
        pub formats: Vec<(WebhookFormat, String)>,
    }
}

answer! {
    /// One row of the delivery log.
    pub struct Delivery {
        /// The `X-MG-Delivery` id, the same on every attempt.
        pub id: String,
        pub event: String,
        pub webhook_id: String,
        /// `None` once the webhook is gone.
        pub webhook_name: Option<String>,
        pub state: DeliveryState,
        pub attempts: i64,
        /// The receiver's last HTTP status.
        pub last_status: Option<i64>,
        /// Why the last attempt failed.
        pub last_error: Option<String>,
        pub created_at: String,
        pub updated_at: String,
        /// When a pending delivery is tried next.
        pub next_attempt_at: Option<String>,
    }
}

answer! {
    /// `GET /api/status/webhooks/deliveries`: the latest 200, newest first.
    pub struct DeliveryLog {
        pub deliveries: Vec<Delivery>,
        /// How long deliveries are kept, in days.
        pub kept_days: i64,
    }
}
