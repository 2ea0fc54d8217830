/// <reference lib="esnext.disposable" />
/* tslint:disable */
/* eslint-disable */
/**
 * A colour theme of the site: 'cosmic' (the default) or 'void'.
 */
export type Theme = "cosmic" | "void";

/**
 * Everything the dashboard renders about the name.
 */
export interface NameEditSnapshot {
    mode: EditMode;
    /**
     * The name as stored on the server.
     */
    name: string;
    /**
     * The text in the input while editing or saving.
     */
    draft: string;
    notice: Notice | null;
}

/**
 * Landing copy for one deployment type.
 */
export interface LandingText {
    title: string;
    subtitle: string;
    description: string;
}

/**
 * One health value as shown on the status cards.
 */
export type HealthValue = "unknown" | "healthy" | "unhealthy" | "n/a";

/**
 * One provider of the login modal, as the modal lists it.
 */
export interface LoginProvider {
    /**
     * The identity provider's id, passed to its OAuth start call.
     */
    id: string;
    /**
     * The button's label: 'Continue with {label}'.
     */
    label: string;
}

/**
 * The SDK's exchange answer: ok, or an error code and message. A missing or non-boolean `ok`
 * is a failure; other fields of the wrong type read as absent.
 */
export interface ExchangeOutcome {
    ok?: boolean;
    user?: IdentityUser | null;
    errorCode?: string | null;
    message?: string | null;
}

/**
 * The body of POST /api/auth/update-profile (spec 3).
 */
export interface ProfileUpdate {
    name?: string;
    profile: ProviderProfile;
}

/**
 * The deployment info shown on the landing page (spec 3), built on the client.
 */
export interface DeploymentInfo {
    id: string;
    name: string;
    type: DeploymentType;
    flags: DeploymentFlags;
    status: "active";
    /**
     * Milliseconds since the Unix epoch at which the info was built.
     */
    created: number;
    github_repo: string;
    telekinesis_queue_url?: string;
    landing: LandingText;
    /**
     * True when database and queue are absent (type ethereal or the ethereal flag).
     */
    ethereal: boolean;
}

/**
 * The feature flags of a deployment. Default: apotheosis on, the others off.
 */
export interface DeploymentFlags {
    apotheosis: boolean;
    sanctified: boolean;
    ethereal: boolean;
}

/**
 * The four kinds of deployment the landing page knows (spec 2.2).
 */
export type DeploymentType = "apotheosis" | "ethereal" | "telekinesis" | "metagenesis";

/**
 * The identity provider's user as the SDK returns it (spec 3); every field optional, and one of
 * the wrong type, or null, reads as absent. Other fields of the SDK's user are ignored.
 */
export interface IdentityUser {
    name?: string | null;
    displayName?: string | null;
    username?: string | null;
    givenName?: string | null;
    nickname?: string | null;
    picture?: string | null;
    avatar?: string | null;
    /**
     * The user's login ids, e.g. 'discord-1234' (the first names the provider).
     */
    loginIds?: string[] | null;
}

/**
 * The provider data stored with the profile.
 */
export interface OauthData {
    username: string | null;
    displayName: string | null;
    avatar: string | null;
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
 * What the build injected about this deployment (every field may be absent; one of the wrong
 * type reads as absent).
 */
export interface DeploymentConfig {
    id?: string | null;
    name?: string | null;
    /**
     * 'apotheosis', 'ethereal', 'telekinesis' or 'metagenesis', any case; anything else: apotheosis.
     */
    deploymentType?: string | null;
    /**
     * The VITE_DEPLOYMENT_FLAGS text (a JSON object of booleans).
     */
    flagsJson?: string | null;
    /**
     * Overrides `flags.sanctified` when given (the build's separate sanctified switch).
     */
    sanctified?: boolean | null;
    githubRepo?: string | null;
    telekinesisQueueUrl?: string | null;
}

/**
 * What the button shows. `Testing` disables it.
 */
export type WisdomSnapshot = { status: "idle" } | { status: "testing" } | { status: "success"; quote: string; orator: string } | { status: "error"; error: string; instructions?: string; message?: string };

/**
 * What the callback page renders.
 */
export interface CallbackSnapshot {
    phase: CallbackPhase;
    message: string | null;
    /**
     * Show the 'Authentication Issue' help (diagnostics) rather than redirecting.
     */
    showHelp: boolean;
    /**
     * Where the page goes once the redirect delay has passed.
     */
    redirectTo: CallbackDestination | null;
}

/**
 * What the hook must do next.
 */
export type CallbackEffect = { kind: "exchange"; code: string } | { kind: "readUser" } | { kind: "updateProfile"; payload: ProfileUpdate } | { kind: "navigate"; to: CallbackDestination };

/**
 * Where the page sends people, by page: the app maps each to its path in the page catalogue
 * (`app/common/routes.ts`), so no route path is spelled here.
 */
export type CallbackDestination = { page: "home" } | { page: "landing"; error: SignInError };

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

/**
 * Why a sign-in failed, as the landing page's `?error=` names it (the landing's notice has a
 * sentence for each value).
 */
export type SignInError = "no_code" | "auth_failed" | "callback_error";

export interface DemoCounters {
    functionsDeployed: number;
    invocationsPerMinute: number;
    messagesQueued: number;
    avgLatencyMs: number;
    /**
     * Which refresh produced these numbers (0 for the first).
     */
    generation: number;
}

export interface LoginSnapshot {
    /**
     * The provider whose sign-in is starting; every other provider is disabled meanwhile.
     */
    loading: string | null;
    error: string | null;
}

export interface Notice {
    kind: NoticeKind;
    text: string;
}

export interface ProviderProfile {
    oauthProvider: string;
    oauthData: OauthData;
}

export type CallbackPhase = "idle" | "exchanging" | "readingUser" | "updatingProfile" | "done" | "failed";

export type EditMode = "view" | "editing" | "saving";

export type NoticeKind = "success" | "error";


/**
 * The /auth/callback page. Every event returns the next effect for the caller to perform
 * (`exchange`, `readUser`, `updateProfile`, `navigate`) or undefined.
 */
export class AuthCallbackMachine {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * The exchange threw `message`.
     */
    exchangeThrew(message: string, nowMs: number): void;
    /**
     * The SDK's exchange answered (`{ ok, user, errorCode, message }`).
     */
    exchanged(outcome: ExchangeOutcome, nowMs: number): CallbackEffect | undefined;
    /**
     * `onLocalhost`: show help instead of redirecting after an unrecognised exchange error.
     */
    constructor(onLocalhost: boolean);
    /**
     * When to call `tick` next, or undefined.
     */
    nextDeadline(): number | undefined;
    /**
     * The profile update succeeded.
     */
    profileUpdated(): CallbackEffect | undefined;
    snapshot(): CallbackSnapshot;
    /**
     * The page opened with the query's `code`, `error` and `state` parameters; `expectedState` is
     * the state this browser stored when it started the sign-in (undefined if none). The code is
     * exchanged only when the two states are equal.
     */
    start(code: string | null | undefined, error: string | null | undefined, state: string | null | undefined, expectedState: string | null | undefined, nowMs: number): CallbackEffect | undefined;
    /**
     * Reading the user or updating the profile failed with `message`.
     */
    stepFailed(message: string, nowMs: number): void;
    /**
     * Time passes: may time out, or return a due `navigate` effect.
     */
    tick(nowMs: number): CallbackEffect | undefined;
    /**
     * The current user was read; `storedName` is the API's name (undefined or empty: none).
     */
    userRead(storedName?: string | null): CallbackEffect | undefined;
}

/**
 * This deployment's info and landing texts, built once from the build-time config.
 */
export class Deployment {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * The deployment info (id, name, type, flags, status 'active', created, github_repo, landing texts).
     */
    info(): DeploymentInfo;
    /**
     * Reads `config` (fields of the wrong type read as absent) at time `nowMs`. The flags JSON
     * is read with the browser's `JSON.parse`.
     */
    constructor(config: DeploymentConfig, nowMs: number);
    /**
     * 'Failed to parse VITE_DEPLOYMENT_FLAGS' when the flags JSON was unreadable (log it), else undefined.
     */
    readonly warning: string | undefined;
}

/**
 * API, database and queue health, polled every 30 000 ms. Call `poll(now)` on load and at
 * `nextDeadline()`; run the checks it asks for and report each status back with its round. A
 * round with `readUptime` also asks GET /api/status for the uptimes the cards show.
 */
export class HealthMachine {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * GET /health answered `status` (undefined: it failed). Returns the console message to log, if any.
     */
    apiResult(round: number, statusCode?: number | null): string | undefined;
    /**
     * GET /db-health answered `status` (undefined: it failed). Returns the console message to log, if any.
     */
    dbResult(round: number, statusCode?: number | null): string | undefined;
    /**
     * `ethereal` without `force` makes api and db 'n/a'; `queueKnown`: a queue URL is configured.
     */
    constructor(ethereal: boolean, force: boolean, queueKnown: boolean);
    /**
     * When to call `poll` next (ms, same clock as `now`), or undefined before the first poll.
     */
    nextDeadline(): number | undefined;
    /**
     * Starts a round if due: the checks to run, or undefined when it is not time yet.
     */
    poll(nowMs: number): CheckPlan | undefined;
    /**
     * Reading the queue configuration failed; returns 'Telekinesis health check failed' to log.
     */
    queueFailed(): string;
    /**
     * The current values `{ api, db, queue }`.
     */
    snapshot(): HealthSnapshot;
}

/**
 * The login modal: one provider loading at a time, the others disabled.
 */
export class LoginMachine {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * A provider was clicked; true when the caller must start its OAuth flow.
     */
    choose(provider: string): boolean;
    /**
     * True when `provider` must be disabled (another one is loading).
     */
    isDisabled(provider: string): boolean;
    constructor();
    /**
     * The six providers in display order, `{ id, label }`.
     */
    static providers(): LoginProvider[];
    snapshot(): LoginSnapshot;
    /**
     * The start call threw.
     */
    startThrew(): void;
    /**
     * The start call answered: returns the URL to send the browser to, or undefined (error shown).
     */
    started(ok: boolean, url?: string | null): string | undefined;
}

/**
 * The dashboard's display-name editor. `save`/`key` return the trimmed name to send, or undefined.
 */
export class NameEditMachine {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Closes the input without saving.
     */
    cancel(): void;
    /**
     * Opens the input with the stored name.
     */
    edit(): void;
    /**
     * The update failed: `message`, or 'Failed to update name', for 5 s.
     */
    failed(message: string | null | undefined, nowMs: number): void;
    /**
     * The input's text changed.
     */
    input(text: string): void;
    /**
     * A key in the input (`KeyboardEvent.key`): Enter saves (returns the name to send), Escape cancels.
     */
    key(key: string, nowMs: number): string | undefined;
    /**
     * Starts in view mode showing `name`.
     */
    constructor(name: string);
    /**
     * When to call `tick` next, or undefined.
     */
    nextDeadline(): number | undefined;
    /**
     * Saves: the trimmed name to send, or undefined ('Name cannot be empty' is then shown for 5 s).
     */
    save(nowMs: number): string | undefined;
    /**
     * The server stored `name`: 'Name updated successfully' for 3 s.
     */
    saved(name: string, nowMs: number): void;
    /**
     * The stored name became known or changed (ignored while saving).
     */
    setName(name: string): void;
    snapshot(): NameEditSnapshot;
    /**
     * Time passes; true when the message was cleared.
     */
    tick(nowMs: number): boolean;
}

/**
 * Made-up counters, deterministic from `seed`, redrawn every 3 s. Always label them as demo data.
 */
export class TelekinesisCounters {
    free(): void;
    [Symbol.dispose](): void;
    counters(): DemoCounters;
    /**
     * The label to show beside the numbers.
     */
    static demoLabel(): string;
    constructor(seed: number, nowMs: number);
    /**
     * When to call `tick` next.
     */
    nextDeadline(): number | undefined;
    /**
     * Time passes; true when new numbers were drawn.
     */
    tick(nowMs: number): boolean;
}

/**
 * The site's colour theme ('cosmic' or 'void'). Create it from the stored preference,
 * call `toggle()` on a click, and persist `theme` after every change.
 */
export class ThemeMachine {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Starts from the value stored under the `theme` key; unknown or missing values read as 'cosmic'.
     */
    constructor(stored?: string | null);
    /**
     * The local-storage key of the preference: 'theme'.
     */
    static storageKey(): string;
    /**
     * Adopts a value written elsewhere (a `storage` event from another tab); returns the theme.
     */
    sync(stored?: string | null): Theme;
    /**
     * Switches cosmic to void and anything else to cosmic; returns the new theme.
     */
    toggle(): Theme;
    /**
     * The current theme: 'cosmic' or 'void'.
     */
    readonly theme: Theme;
}

/**
 * The Wisdom button: idle -> testing -> success/error -> idle after 5 s (3 s after a network failure).
 */
export class WisdomMachine {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * The API answered with `status` and the raw `body` text.
     */
    answered(statusCode: number, body: string, nowMs: number): void;
    /**
     * A click; true when the caller must POST /api/wisdom now.
     */
    click(): boolean;
    /**
     * The request got no answer: shows 'Failed to connect to API' for 3 s.
     */
    networkFailed(nowMs: number): void;
    constructor();
    /**
     * When to call `tick` next, or undefined.
     */
    nextDeadline(): number | undefined;
    /**
     * What the button shows.
     */
    snapshot(): WisdomSnapshot;
    /**
     * Time passes; true when the button went back to idle.
     */
    tick(nowMs: number): boolean;
    /**
     * True while a request is running (the button is disabled).
     */
    readonly disabled: boolean;
}

/**
 * The message a failed API call shows (spec 8), or `undefined` when `status` is 2xx.
 * Pass `status` undefined when no response arrived; `body` is the raw response text.
 */
export function apiErrorMessage(statusCode?: number | null, body?: string | null): string | undefined;

/**
 * An uptime in percent as every page writes it ("99.98%": floored to two decimals, no trailing
 * zeros), the server's badges included; undefined without a figure.
 */
export function formatUptime(uptime?: number | null): string | undefined;

/**
 * The word a health value reads as on the cards ('Healthy', 'Unhealthy', 'Not applicable';
 * 'Checking' while a check is under way).
 */
export function healthLabel(value: HealthValue): string;

/**
 * The most characters a display name may have (the server refuses longer ones).
 */
export function maxNameChars(): number;

/**
 * The name people know an identity provider by ('GitHub' for `github`, any case); the id itself
 * when it is not one of the six.
 */
export function providerLabel(id: string): string;
