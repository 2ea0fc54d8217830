// The server's HTTP contract: the bodies it answers and the request bodies it reads, and the runtime
// configuration it puts into every page. Generated from the Rust types (server/src/http_contract.rs,
// ts-rs): do not edit; change the Rust type and run `make http-types`. A Rust test fails while this
// file differs from what the Rust types give. Neutral ground: app code, build code and scripts import it.

/**
 * The body of every API failure (and of the answers hyper writes itself, `edge/own_errors.rs`).
 */
export type ErrorBody = { 
/**
 * What a program reads: `bad_request`, `unauthorized`, `rate_limited`, ... (one per kind of
 * failure, `AppError::code`, plus those of hyper's own answers).
 */
code: string, 
/**
 * The sentence a person reads; the app shows it as is.
 */
error: string, };

/**
 * The deployment values the app reads from the page (app/src/config/runtime-config.ts): the one
 * definition of their names and types. The app's type is generated from this struct, and the build's
 * prerender writes the same object for each variant it renders (app/common/variant.ts).
 */
export type RuntimeConfig = { 
/**
 * `DEPLOYMENT_FLAGS`, the raw JSON text (the app's wasm core reads it); absent when unset.
 */
deploymentFlags?: string, deploymentId?: string, deploymentType?: string, 
/**
 * Base URL of the identity service, no trailing slash; "" means this page's own origin (the
 * server's identity emulator).
 */
identityBaseUrl: string, 
/**
 * Present (and true) only when the identity emulator runs on a public address on purpose:
 * the app shows its marker, since this server signs anyone in.
 */
identityEmulator?: true, 
/**
 * Absent when sanctified mode has no identity project (the app then shows its notice).
 */
identityProjectId?: string, sanctified: boolean, };

/**
 * The body of `GET /health` and `GET /api/health`.
 */
export type Health = { status: "ok", };

/**
 * The body of `GET /db-health`: 200 with the latency of the probe (a read and a committed write,
 * `db/probe.rs`) in milliseconds, or 503 with the API's error fields, `error` saying which step
 * failed and why.
 */
export type DbHealth = { database: DatabaseName, latency_ms: number, status: "ok", } | { code: "database_unavailable", database: DatabaseName, error: string, status: "unavailable", };

/**
 * Which engine a URL points at; `/db-health` names it as `Backend::name` spells it.
 */
export type DatabaseName = "sqlite" | "postgres";

/**
 * The body of a `POST /api/wisdom` that found a quote.
 */
export type WisdomAnswer = { wisdom: Wisdom, };

/**
 * The body of a `POST /api/wisdom` that found none (spec section 3): what failed for a person,
 * how to fix it for whoever runs the server, and the code a program reads.
 */
export type WisdomFailure = { 
/**
 * `wisdom_empty` or `database_unavailable`.
 */
code: string, 
/**
 * Always 'Wisdom is unavailable right now.'
 */
error: string, instructions: string, message: string, };

/**
 * One quote and who said it.
 */
export type Wisdom = { orator: string, quote: string, };

/**
 * The body of `POST /api/auth/current-user` and `POST /api/auth/update-profile`.
 */
export type UserAnswer = { data: CurrentUser, };

/**
 * The user as the app reads it (spec section 3), `updated_at` null until the first update.
 */
export type CurrentUser = { 
/**
 * The identity provider's user id.
 */
id: string, 
/**
 * The display name; null until the person or the provider gave one.
 */
name: string | null, email: string | null, 
/**
 * RFC 3339.
 */
created_at: string, 
/**
 * RFC 3339 of the person's last own edit; null until the first.
 */
updated_at: string | null, 
/**
 * How many browsers are signed in as this user (sessions not expired or ended).
 */
activeSessions: number, 
/**
 * What the last sign-in's sync stored; null before one.
 */
profile: UserProfile | null, };

export type UserProfile = { oauthProvider: string, 
/**
 * Null when the stored JSON cannot be read.
 */
oauthData: ProviderData | null, };

/**
 * The provider's data as the sign-in's sync stores it (the `provider_profile` column, as JSON)
 * and the user's answers hand it back: each value `null` when the provider gave none.
 */
export type ProviderData = { 
/**
 * An `https://` address.
 */
avatar: string | null, displayName: string | null, username: string | null, };

/**
 * The body of `update-profile`. Unknown fields are refused so a typo never silently does nothing.
 * `name` alone is the person's own edit; `profile` is the sign-in's sync of the provider's data.
 */
export type UpdateProfileRequest = { name?: string | null, profile?: ProfileSync | null, };

export type ProfileSync = { oauthProvider: string, oauthData: OauthData, };

export type OauthData = { username?: string | null, displayName?: string | null, avatar?: string | null, };

/**
 * The body of `POST /api/auth/logout`.
 */
export type LogoutAnswer = { data: SessionEnded, };

export type SessionEnded = { 
/**
 * Whether the request's session was still recorded (false: it had ended already).
 */
ended: boolean, };

/**
 * The body of `POST /api/auth/sessions`.
 */
export type SessionsAnswer = { data: SessionList, };

export type SessionList = { 
/**
 * The unexpired sessions, the most recently active first (20 at most: the cap per user).
 */
sessions: Array<AccountSession>, };

/**
 * One of the user's sessions: a signed-in browser or device.
 */
export type AccountSession = { 
/**
 * What `sessions/revoke` takes: 64 hex digits, a hash of the session's own id (never the id).
 */
id: string, 
/**
 * Browser and system ("Firefox on Linux"), derived once from the User-Agent at sign-in.
 */
label: string, 
/**
 * RFC 3339: when the session was first seen (its sign-in).
 */
createdAt: string, 
/**
 * RFC 3339: its last recorded use (recorded at most once an hour per instance).
 */
lastActiveAt: string, 
/**
 * RFC 3339: when it ends unless used again.
 */
expiresAt: string, 
/**
 * The session this request came from ("this device").
 */
current: boolean, 
/**
 * Whether the session's tokens name their sign-in at the identity provider: signing it out
 * then refuses every token that sign-in is ever refreshed to, so the browser is out until it
 * signs in again. Otherwise only the tokens it has used are refused, and it may renew its
 * sign-in on its own until the provider ends it (docs/identity.md "Signing out from the app").
 */
boundToSignIn: boolean, };

/**
 * The body of `POST /api/auth/sessions/revoke`.
 */
export type RevokeSessionRequest = { 
/**
 * A session's `id` from `POST /api/auth/sessions`.
 */
id: string, };

/**
 * The body of `POST /api/auth/sessions/revoke` and `.../revoke-others`.
 */
export type RevokeAnswer = { data: SessionsRevoked, };

export type SessionsRevoked = { 
/**
 * How many sessions were signed out.
 */
revoked: number, };

/**
 * The file `POST /api/auth/export` answers: everything mg-web stores about the user
 * (docs/data-export.md describes it field by field).
 */
export type DataExport = { 
/**
 * `mg-web-export/1`: the version of this format.
 */
format: string, 
/**
 * RFC 3339: when the file was made.
 */
exportedAt: string, profile: ExportedProfile, 
/**
 * Every unexpired session, as `POST /api/auth/sessions` lists them.
 */
sessions: Array<AccountSession>, };

/**
 * The user's row of `users`, every column but the internal row number.
 */
export type ExportedProfile = { 
/**
 * The identity provider's user id.
 */
id: string, email: string | null, 
/**
 * The display name; null until the person or the provider gave one.
 */
name: string | null, 
/**
 * The provider of the last sign-in's sync ("github", ...); null before one.
 */
loginProvider: string | null, 
/**
 * What that sync stored of the provider's profile; null before one.
 */
providerData: ProviderData | null, 
/**
 * RFC 3339: when mg-web first saw this user.
 */
createdAt: string, 
/**
 * RFC 3339 of the person's last own edit; null until the first.
 */
updatedAt: string | null, };

/**
 * The body of `POST /api/auth/delete-account`: `{"confirm": true}`, so no stray request deletes.
 */
export type DeleteAccountRequest = { confirm: boolean, };

/**
 * The body of `POST /api/auth/delete-account`.
 */
export type DeleteAnswer = { data: AccountDeleted, };

export type AccountDeleted = { 
/**
 * Whether there was an account to delete (false: it was deleted already).
 */
deleted: boolean, };

/**
 * The body of `GET /api/status`.
 */
export type StatusSummary = { state: ComponentState, updated_at: string, check_interval_seconds: number, instance_id: string, components: Array<ComponentStatus>, viewpoints: Array<Viewpoint>, open_incidents: Array<Incident>, 
/**
 * Ended incidents of the last 90 days, newest first (at most 20).
 */
recent_incidents: Array<Incident>, 
/**
 * What operators wrote: open incidents, upcoming and running maintenance, then the latest
 * resolved and completed ones (`crate::notices`), newest first within each group.
 */
notices: Array<Notice>, 
/**
 * A digest of `notices` (`crate::notices::digest`): it changes with every post, correction,
 * and window that starts or ends, so a page holding older posts asks for them at once.
 */
notices_digest: string, 
/**
 * The page's overall status (`crate::component_status::overall`): Statuspage's indicator
 * (`none`, `minor`, `major`, `critical`, `maintenance`) and its words ("All Systems
 * Operational"), from the components' `status`.
 */
indicator: string, description: string, 
/**
 * The components this deployment does not check (the queue without a queue URL): the page
 * says "not configured" for them, and operators are not offered them.
 */
not_configured: Array<string>, 
/**
 * How many of `notices` are open incidents (the page's sentence about the checks' incidents
 * says so rather than "no incidents").
 */
open_operator_incidents: number, 
/**
 * The status page's absolute address, on the deployment's public origin (`PUBLIC_URL`).
 */
page_url: string, };

/**
 * The state of a component, or of one viewpoint's view of it.
 */
export type ComponentState = "operational" | "degraded" | "down" | "unknown";

export type ComponentStatus = { id: string, name: string, state: ComponentState, uptime: Uptime, 
/**
 * Over the last 24 hours, every viewpoint's checks.
 */
latency_24h: Latency, last_checked_at: string | null, viewpoints: Array<ViewpointState>, 
/**
 * What the page states: the checks' `state` combined with the operators' declarations and the
 * windows in progress (`crate::component_status`); null before any current check or
 * declaration.
 */
status: ComponentCondition | null, 
/**
 * Why the status is not the measured one: "declared" (an open incident's declaration is worse
 * than the checks), "maintenance" (a window in progress), or null.
 */
status_source: string | null, 
/**
 * `status` and why, in the words every card shows (`ComponentStatus::words`,
 * `component_status::source_note`: "Major outage", "Declared by the operators"), for the
 * pages that do not load the status page's core (the landing's cards); the status page's core
 * says the same from `status` with the same two functions.
 */
status_words: string | null, status_note: string | null, };

/**
 * Percent of each window the component was up as its viewpoints agree (3 decimals); null
 * without checks in the window.
 */
export type Uptime = { "24h": number | null, "7d": number | null, "30d": number | null, "90d": number | null, };

/**
 * Latency percentiles in milliseconds; null without checks.
 */
export type Latency = { p50_ms: number | null, p95_ms: number | null, };

/**
 * One viewpoint's latest check of a component.
 */
export type ViewpointState = { instance_id: string, state: ComponentState, checked_at: string, latency_ms: number, error: string | null, 
/**
 * False when this viewpoint has not checked for three intervals.
 */
fresh: boolean, };

export type Viewpoint = { instance_id: string, last_checked_at: string, fresh: boolean, };

/**
 * An incident as the page shows it: the same component's overlapping incidents from several
 * viewpoints are one, listing the viewpoints that saw it.
 */
export type Incident = { id: string, component: string, component_name: string, started_at: string, ended_at: string | null, first_error: string, viewpoints: Array<string>, };

/**
 * The body of `GET /api/status/history`.
 */
export type StatusHistory = { component: string, range: StatusRange, bucket_seconds: number, points: Array<HistoryPoint>, };

/**
 * The ranges of `GET /api/status/history`, as its `range` parameter and answers spell them.
 */
export type StatusRange = "24h" | "7d" | "90d";

/**
 * One bar or point of a chart.
 */
export type HistoryPoint = { start: string, checks: number, failures: number, 
/**
 * Percent of the bucket the component was up as its viewpoints agree; null without checks.
 */
uptime: number | null, latency_p50_ms: number | null, latency_p95_ms: number | null, latency_max_ms: number | null, 
/**
 * Incidents overlapping the bucket (the 90-day range only).
 */
incidents?: number, 
/**
 * The day's checks in hours that overlap a maintenance window of the component (the 90-day
 * range only, on days with such checks). Those hours are left out of the day's `uptime`.
 */
maintenance?: DayMaintenance, };

/**
 * What happened inside maintenance windows on one day of one component.
 */
export type DayMaintenance = { 
/**
 * Failed checks (every viewpoint's) in hours that overlap a window.
 */
failures: number, 
/**
 * The windows' titles, in the order they start.
 */
windows: Array<string>, };

/**
 * The body of `GET /api/status/page`.
 */
export type StatusPage = { summary: StatusSummary, history: Array<StatusPageHistory>, 
/**
 * Null in the full answer; in an incremental one, the `since` it answers: each series then
 * holds only its points from the bucket holding that time on, for the client to merge by `start`.
 */
since: string | null, };

/**
 * One component's two series on the status page.
 */
export type StatusPageHistory = { component: string, 
/**
 * The 90-day range (daily buckets, with incidents).
 */
daily: StatusHistory, 
/**
 * The 24-hour range (15-minute buckets).
 */
recent: StatusHistory, };

/**
 * An incident or a maintenance window written by an operator.
 */
export type Notice = { id: string, kind: NoticeKind, title: string, impact: NoticeImpact, 
/**
 * The status now: the latest update's, except that a maintenance window's follows its clock
 * (scheduled before it starts, in progress during it, completed after it or once completed).
 */
status: NoticeStatus, 
/**
 * Affected component ids.
 */
components: Array<string>, 
/**
 * The checks' incident (`Incident::id`) this one is attached to.
 */
check_incident: string | null, 
/**
 * A maintenance window's start and end.
 */
starts_at: string | null, ends_at: string | null, created_at: string, updated_at: string, resolved_at: string | null, 
/**
 * The status an open incident declares for its components: its latest update's that declares
 * one; null when none does, and once resolved (`crate::component_status`).
 */
component_status: ComponentCondition | null, 
/**
 * Newest first.
 */
updates: Array<NoticeUpdate>, };

/**
 * One entry of a notice's timeline.
 */
export type NoticeUpdate = { 
/**
 * 1 for the first update.
 */
seq: number, status: NoticeStatus, 
/**
 * The operator's Markdown rendered to HTML that holds no raw HTML, no script and no link
 * other than http(s) and mailto.
 */
body_html: string, created_at: string, 
/**
 * When its text was last corrected (an operator's edit); `None` while it reads as posted.
 */
edited_at: string | null, 
/**
 * The status this update declares for the notice's components (an incident's), if any.
 */
component_status: ComponentCondition | null, };

/**
 * Incident or maintenance.
 */
export type NoticeKind = "incident" | "maintenance";

/**
 * Where an incident or a maintenance window stands: the first four are an incident's, the
 * last three a window's (Statuspage's words).
 */
export type NoticeStatus = "investigating" | "identified" | "monitoring" | "resolved" | "scheduled" | "in_progress" | "completed";

/**
 * An incident's impact, as Statuspage spells it.
 */
export type NoticeImpact = "none" | "minor" | "major" | "critical" | "maintenance";

/**
 * A component's status, as Statuspage spells it.
 */
export type ComponentCondition = "operational" | "degraded_performance" | "partial_outage" | "major_outage" | "under_maintenance";

/**
 * `GET /api/status/operator`: what the operator view needs.
 */
export type OperatorView = { operator: string, 
/**
 * `(id, name)` of the components an incident or window may name.
 */
components: Array<[string, string]>, 
/**
 * The checks' incidents an incident may be attached to (open and recent ones' ids).
 */
check_incidents: Array<string>, 
/**
 * The incidents and windows still open, which can take updates.
 */
open_notices: Array<OpenNotice>, limits: OperatorLimits, 
/**
 * The words each field may hold and the words the forms show for them, in the order they are
 * offered: an incident's statuses (the first three open one), a window's, the impacts of an
 * incident, and the component statuses an incident may declare.
 */
incident_statuses: Array<[NoticeStatus, string]>, window_statuses: Array<[NoticeStatus, string]>, impacts: Array<[NoticeImpact, string]>, component_statuses: Array<[ComponentCondition, string]>, 
/**
 * The incidents and windows the page lists, with each update's text as posted (Markdown),
 * so that the view can correct them (`PATCH`/`DELETE .../updates/{seq}`).
 */
posted: Array<PostedNotice>, 
/**
 * The status operators set on each component by itself, without an incident (`None`: the
 * checks' measure), for every component the view offers.
 */
component_settings: Array<[string, ComponentCondition | null]>, };

export type OperatorLimits = { title_chars: number, body_chars: number, updates_per_notice: number, open_notices: number, };

export type OpenNotice = { id: string, kind: NoticeKind, title: string, };

/**
 * A notice as the operator view lists it for corrections.
 */
export type PostedNotice = { id: string, kind: NoticeKind, title: string, 
/**
 * Newest first.
 */
updates: Array<PostedUpdate>, };

export type PostedUpdate = { seq: number, status: NoticeStatus, 
/**
 * The text as posted or last corrected (Markdown).
 */
body: string, created_at: string, author: string, 
/**
 * Why it cannot be deleted (in the page's words), or `None` when it can.
 */
kept: string | null, };

/**
 * `GET /api/status/operator/log`: the latest operator actions, newest first.
 */
export type OperatorLog = { entries: Array<OperatorAction>, };

export type OperatorAction = { at: string, operator: string, action: string, target: string, 
/**
 * An edited or deleted update's text before the change.
 */
old_text: string | null, };

/**
 * `POST /api/status/incidents`.
 */
export type OpenIncidentRequest = { title: string, impact: NoticeImpact, components: Array<string>, status: NoticeStatus, 
/**
 * The first update's text (Markdown).
 */
body: string, 
/**
 * The id of an incident the checks opened, to attach this one to.
 */
check_incident?: string | null, 
/**
 * The status it declares for its components while it is open (`mg_domain::component_status`).
 */
component_status?: ComponentCondition | null, };

/**
 * `POST /api/status/maintenances`.
 */
export type ScheduleMaintenanceRequest = { title: string, components: Array<string>, 
/**
 * RFC 3339 UTC (`2026-11-29T02:00:00Z`).
 */
starts_at: string, ends_at: string, body: string, };

/**
 * `POST /api/status/{incidents,maintenances}/{id}/updates`.
 */
export type NoticeUpdateRequest = { status: NoticeStatus, body: string, 
/**
 * An incident's update may declare a new status for its components (absent: the last one
 * declared stays). A window's may not: a window in progress is `under_maintenance` by itself.
 */
component_status?: ComponentCondition | null, };

/**
 * `PATCH /api/status/{incidents,maintenances}/{id}/updates/{seq}`: the update's corrected text.
 * Its status and declared component status stay as posted.
 */
export type NoticeUpdateEditRequest = { body: string, };

/**
 * `PATCH /api/status/components/{id}`: the status operators set on the component by itself,
 * without an incident; `null` clears it (the checks' measure shows). The field is required: an
 * empty body is a 400 that changes nothing, so clearing takes an explicit `null` (serde would
 * otherwise read a missing `Option` as `None`).
 */
export type ComponentStatusRequest = { status: ComponentCondition | null, };

/**
 * The answer of `PATCH /api/status/components/{id}`: what operators set on the component and
 * what the page shows for it now (`mg_domain::component_status`'s rule; `None` before any check).
 */
export type ComponentSetting = { id: string, set: ComponentCondition | null, status: ComponentCondition | null, 
/**
 * `declared` or `maintenance` when the shown status is not the checks' measure.
 */
status_source: string | null, };

/**
 * What a webhook's bodies look like: the whole event as JSON, or one message for Slack's or
 * Discord's incoming webhooks.
 */
export type WebhookFormat = "json" | "slack" | "discord";

/**
 * `POST /api/status/webhooks`.
 */
export type AddWebhookRequest = { url: string, format: WebhookFormat, 
/**
 * A label for the list and the delivery log (default: the URL's host).
 */
name?: string | null, };

/**
 * A webhook as listed (never its secret).
 */
export type Webhook = { id: string, name: string, url: string, format: WebhookFormat, created_at: string, created_by: string, };

/**
 * `POST /api/status/webhooks` answers 201 with the webhook and its signing secret, shown this
 * once: 64 hex digits, the HMAC-SHA256 key of the `X-MG-Signature` header.
 */
export type AddedWebhook = { webhook: Webhook, secret: string, };

/**
 * `GET /api/status/webhooks`.
 */
export type WebhookList = { webhooks: Array<Webhook>, 
/**
 * Live webhooks at most.
 */
max_webhooks: number, max_url_chars: number, max_name_chars: number, 
/**
 * The formats a webhook may have, with the words the form shows for them.
 */
formats: Array<[WebhookFormat, string]>, };

/**
 * Where a delivery is: waiting for its (next) attempt, delivered (a 2xx answer), failed (every
 * attempt failed, or its webhook was deleted), or held (a component change inside a
 * maintenance window: logged, never sent).
 */
export type DeliveryState = "pending" | "delivered" | "failed" | "held";

/**
 * One row of the delivery log.
 */
export type Delivery = { 
/**
 * The `X-MG-Delivery` id, the same on every attempt.
 */
id: string, event: string, webhook_id: string, 
/**
 * `None` once the webhook is gone.
 */
webhook_name: string | null, state: DeliveryState, attempts: number, 
/**
 * The receiver's last HTTP status.
 */
last_status: number | null, 
/**
 * Why the last attempt failed.
 */
last_error: string | null, created_at: string, updated_at: string, 
/**
 * When a pending delivery is tried next.
 */
next_attempt_at: string | null, };

/**
 * `GET /api/status/webhooks/deliveries`: the latest 200, newest first.
 */
export type DeliveryLog = { deliveries: Array<Delivery>, 
/**
 * How long deliveries are kept, in days.
 */
kept_days: number, };
