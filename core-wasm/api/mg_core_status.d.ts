/// <reference lib="esnext.disposable" />
/* tslint:disable */
/* eslint-disable */
/**
 * A component's history block.
 */
export interface HistoryView {
    /**
     * Exactly `DAYS` (90) bars once the series arrived, else empty (and `bars_message` says why).
     */
    bars: DayBar[];
    barsMessage: string | null;
    /**
     * One sentence for screen readers.
     */
    barsSummary: string;
    /**
     * No day of the 90 has checks yet.
     */
    empty: boolean;
    p50Text: string;
    p95Text: string;
    /**
     * The 24-hour buckets (all `RECENT_BUCKETS`, 96); empty before they arrive.
     */
    latency: LatencyRow[];
    /**
     * Said instead of the chart: loading, unavailable, or no checks yet.
     */
    latencyMessage: string | null;
}

/**
 * Everything the page shows besides the live values (which change every round, while this
 * changes only with the server's answers).
 */
export interface StatusView {
    /**
     * The page's overall status in words ("All Systems Operational"), and Statuspage's indicator
     * for styling (`none`, `minor`, `major`, `critical`, `maintenance`); `None` before the
     * server's answer.
     */
    overall: string | null;
    overallIndicator: string | null;
    /**
     * The operators' posts as the server made them (escaped HTML, safe to insert); until they
     * came, `notices_message` says why not.
     */
    noticesHtml: string | null;
    noticesMessage: string | null;
    cards: CardView[];
    /**
     * `false` on an ethereal deployment (no API, no incidents to list).
     */
    showIncidents: boolean;
    incidents: IncidentView[];
    /**
     * Said instead of the list (loading, unavailable, none).
     */
    incidentsMessage: string | null;
}

/**
 * How a day's bar is coloured: no checks, all (or nearly all) up, some downtime, a real outage,
 * or checks that failed only inside maintenance windows (`mg_domain::status::Point::in_maintenance`).
 */
export type Tone = "none" | "up" | "minor" | "down" | "maintenance";

/**
 * One 15-minute bucket of the latency chart and its table row.
 */
export interface LatencyRow {
    start: string;
    /**
     * "14:15" (UTC).
     */
    clock: string;
    /**
     * Without checks in the bucket both are `None` (a gap in the lines).
     */
    p50: number | null;
    p95: number | null;
    p50Text: string;
    p95Text: string;
    checks: number;
    failures: number;
}

/**
 * One card's live value from this browser's checks, and the word shown for it.
 */
export interface LiveValue {
    id: string;
    health: HealthValue;
    label: string;
}

/**
 * One component's card.
 */
export interface CardView {
    id: string;
    name: string;
    /**
     * Nothing is checked for this card (no queue URL, or an ethereal deployment): a short card
     * with `note` only.
     */
    unchecked: boolean;
    note: string;
    /**
     * The server's last check (`datetime`), and as shown ("14:03 UTC").
     */
    checkedAt: string | null;
    checkedClock: string | null;
    uptime: UptimeCell[];
    /**
     * What the page states of the component (the server's `status`: the checks and the
     * operators combined), as words ("Major outage") and as its word for styling
     * ("major_outage"); `None` before the server's answer or without a current status.
     */
    status: string | null;
    statusKey: string | null;
    /**
     * Why it is not what the checks measure: "Declared by the operators" or "A maintenance
     * window is in progress"; empty otherwise.
     */
    statusNote: string;
    /**
     * Present once the server's summary lists the component.
     */
    history: HistoryView | null;
    /**
     * Said instead of the history while there is none.
     */
    historyMessage: string;
}

/**
 * One day's bar: its tooltip is `day` over `detail`; its accessible name is both.
 */
export interface DayBar {
    /**
     * YYYY-MM-DD (UTC).
     */
    date: string;
    tone: Tone;
    /**
     * Percent up; `None` without checks that day.
     */
    uptime: number | undefined;
    incidents: number;
    /**
     * "24 Nov 2026".
     */
    day: string;
    /**
     * "99.98% uptime, 1 incident", "no data", or for maintenance "Maintenance: 2 failed checks
     * during 'Database upgrade', 1 incident" (on a day that failed outside the window too, the
     * uptime first and the maintenance after it).
     */
    detail: string;
    /**
     * "24 Nov 2026: 99.98% uptime, 1 incident".
     */
    label: string;
}

/**
 * One health value as shown on the status cards.
 */
export type HealthValue = "unknown" | "healthy" | "unhealthy" | "n/a";

/**
 * The requests of one round; each result is reported back with `round`.
 */
export interface RoundPlan {
    round: number;
    checkApi: boolean;
    checkDb: boolean;
    /**
     * GET this URL (the Telekinesis queue); a 2xx answer is healthy.
     */
    queueUrl: string | null;
    /**
     * GET this path of the API for the status page; `None`: no API (ethereal).
     */
    statusPath: string | null;
    /**
     * Send as `If-None-Match` with the status request.
     */
    ifNoneMatch: string | null;
    /**
     * GET this path for the operators' posts (HTML), with `notices_if_none_match`; `None`: not
     * this round.
     */
    noticesPath: string | null;
    noticesIfNoneMatch: string | null;
}

/**
 * The three values shown.
 */
export interface HealthSnapshot {
    api: HealthValue;
    db: HealthValue;
    queue: HealthValue;
}

/**
 * Which HTTP checks the hook must run for one round; results carry `round` back.
 */
export interface CheckPlan {
    round: number;
    checkApi: boolean;
    checkDb: boolean;
    /**
     * Read the server's uptimes (`GET /api/status`) this round: with the API's check, so never
     * on an ethereal deployment unless its checks are forced.
     */
    readUptime: boolean;
}

export interface IncidentView {
    id: string;
    componentName: string;
    ongoing: boolean;
    /**
     * "Ongoing" or "Resolved".
     */
    state: string;
    startedAt: string;
    /**
     * "24 Nov, 14:03".
     */
    started: string;
    /**
     * Empty while ongoing.
     */
    endedAt: string;
    ended: string;
    /**
     * " UTC (1 h 5 min)" or " UTC, still open".
     */
    tail: string;
    error: string;
}

export interface UptimeCell {
    label: string;
    value: string;
}


/**
 * The status page: one round every 30 000 ms. Call `poll(now)` on load and at `nextDeadline()`;
 * run the requests the plan names and report each answer back with its round; re-read `live()`
 * when `version()` changed and `view()` when `viewVersion()` did.
 */
export class StatusPageMachine {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * GET /health answered `status` (undefined: it failed). Returns the console message to log.
     */
    apiResult(round: number, statusCode?: number | null): string | undefined;
    /**
     * GET /db-health answered `status` (undefined: it failed). Returns the console message to log.
     */
    dbResult(round: number, statusCode?: number | null): string | undefined;
    /**
     * The live values `{ api, db, queue }`.
     */
    health(): HealthSnapshot;
    /**
     * Each card's live value and the word shown for it.
     */
    live(): LiveValue[];
    /**
     * `ethereal` without `force`: no API to ask. `queueUrl`: the Telekinesis queue, if known.
     */
    constructor(ethereal: boolean, force: boolean, queueUrl?: string | null);
    /**
     * When to call `poll` next (ms, same clock as `now`), or undefined before the first poll.
     */
    nextDeadline(): number | undefined;
    /**
     * The operators' posts answered `status` (undefined: it failed) with its `ETag` and text.
     */
    noticesResult(round: number, statusCode?: number | null, etag?: string | null, text?: string | null): void;
    /**
     * Starts a round if due: the requests to make, or undefined when it is not time yet.
     */
    poll(nowMs: number): RoundPlan | undefined;
    /**
     * An operator posted: the next round, with the posts, is due at once (`nextDeadline()`).
     */
    posted(nowMs: number): void;
    /**
     * The queue URL answered `status` (undefined: it failed). Returns the console message to log.
     */
    queueResult(round: number, statusCode?: number | null): string | undefined;
    /**
     * The status request answered `status` (undefined: it failed) with its `ETag` and body text.
     * The text (56 KB with 90 days of history) stays a JavaScript string: it is parsed there,
     * never copied into the .wasm.
     */
    statusResult(round: number, statusCode?: number | null, etag?: string | null, body?: string | null): void;
    /**
     * Changes whenever `live()` may give something new.
     */
    version(): number;
    /**
     * Changes whenever `view()` may give something new (the server's answers, midnight UTC).
     */
    viewVersion(): number;
    /**
     * Everything the page shows besides the live values.
     */
    view(): StatusView;
}
