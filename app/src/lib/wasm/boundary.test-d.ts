// Type-level tests of the wasm boundary, checked by `npm run typecheck` (tsc) and never run (the
// `.test-d.ts` name keeps it out of Vitest). The types come from the Rust types (tsify, see
// core-wasm/README.md), so a renamed Rust field or variant changes them: the exact-key checks below
// fail, and so does every app file still reading the old name (no casts at the boundary hide it).
import type { Wisdom, WisdomFailure } from "@common/http-types";
import type {
  AuthCallbackMachine,
  CallbackEffect,
  CallbackPhase,
  CallbackSnapshot,
  CheckPlan,
  DemoCounters,
  Deployment,
  DeploymentConfig,
  DeploymentFlags,
  DeploymentInfo,
  ExchangeOutcome,
  HealthMachine,
  HealthSnapshot,
  HealthValue,
  IdentityUser,
  LoginMachine,
  LoginProvider,
  LoginSnapshot,
  NameEditMachine,
  NameEditSnapshot,
  ProfileUpdate,
  TelekinesisCounters,
  Theme,
  ThemeMachine,
  WisdomMachine,
  WisdomSnapshot,
} from "./core";

/** True only when A and B are the same type (not merely assignable). */
type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only for `true`. */
function check<_T extends true>(): void {}

// Every field name the app reads, exactly: a rename or a new field fails here first.
check<Equal<keyof HealthSnapshot, "api" | "db" | "queue">>();
check<Equal<HealthValue, "unknown" | "healthy" | "unhealthy" | "n/a">>();
check<Equal<keyof CheckPlan, "round" | "checkApi" | "checkDb" | "readUptime">>();
check<Equal<keyof DeploymentFlags, "apotheosis" | "sanctified" | "ethereal">>();
check<
  Equal<
    keyof DeploymentInfo,
    | "id"
    | "name"
    | "type"
    | "flags"
    | "status"
    | "created"
    | "github_repo"
    | "telekinesis_queue_url"
    | "landing"
    | "ethereal"
  >
>();
check<
  Equal<
    keyof DeploymentConfig,
    | "id"
    | "name"
    | "deploymentType"
    | "flagsJson"
    | "sanctified"
    | "githubRepo"
    | "telekinesisQueueUrl"
  >
>();
check<Equal<WisdomSnapshot["status"], "idle" | "testing" | "success" | "error">>();
check<Equal<keyof Extract<WisdomSnapshot, { status: "success" }>, "status" | "quote" | "orator">>();
check<
  Equal<
    keyof Extract<WisdomSnapshot, { status: "error" }>,
    "status" | "error" | "instructions" | "message"
  >
>();
// What the wasm reads from /api/wisdom, against the server's own types (common/http-types.ts).
check<Equal<keyof Extract<WisdomSnapshot, { status: "success" }>, "status" | keyof Wisdom>>();
check<
  Equal<
    keyof Extract<WisdomSnapshot, { status: "error" }>,
    "status" | Exclude<keyof WisdomFailure, "code">
  >
>();
check<Equal<keyof NameEditSnapshot, "mode" | "name" | "draft" | "notice">>();
check<Equal<NameEditSnapshot["mode"], "view" | "editing" | "saving">>();
check<Equal<keyof NonNullable<NameEditSnapshot["notice"]>, "kind" | "text">>();
check<Equal<keyof LoginSnapshot, "loading" | "error">>();
check<Equal<keyof LoginProvider, "id" | "label">>();
check<Equal<keyof CallbackSnapshot, "phase" | "message" | "showHelp" | "redirectTo">>();
check<
  Equal<
    CallbackPhase,
    "idle" | "exchanging" | "readingUser" | "updatingProfile" | "done" | "failed"
  >
>();
check<Equal<CallbackEffect["kind"], "exchange" | "readUser" | "updateProfile" | "navigate">>();
// The callback machine names pages, never paths: the app maps them with the page catalogue.
type CallbackDestination = Extract<CallbackEffect, { kind: "navigate" }>["to"];
check<Equal<CallbackDestination["page"], "home" | "landing">>();
check<
  Equal<
    Extract<CallbackDestination, { page: "landing" }>["error"],
    "no_code" | "auth_failed" | "callback_error"
  >
>();
check<Equal<keyof ExchangeOutcome, "ok" | "user" | "errorCode" | "message">>();
check<
  Equal<
    keyof IdentityUser,
    | "name"
    | "displayName"
    | "username"
    | "givenName"
    | "nickname"
    | "picture"
    | "avatar"
    | "loginIds"
  >
>();
check<Equal<keyof ProfileUpdate, "name" | "profile">>();
check<Equal<keyof ProfileUpdate["profile"], "oauthProvider" | "oauthData">>();
check<
  Equal<
    keyof DemoCounters,
    "functionsDeployed" | "invocationsPerMinute" | "messagesQueued" | "avgLatencyMs" | "generation"
  >
>();
check<Equal<Theme, "cosmic" | "void">>();

// Absent values are null in snapshots (the hooks compare and render them as such).
check<Equal<LoginSnapshot["loading"], string | null>>();
check<Equal<CallbackSnapshot["redirectTo"], CallbackDestination | null>>();

// The classes hand out and take the generated types, not `any`.
check<Equal<ReturnType<HealthMachine["snapshot"]>, HealthSnapshot>>();
check<Equal<ReturnType<HealthMachine["poll"]>, CheckPlan | undefined>>();
check<Equal<ReturnType<WisdomMachine["snapshot"]>, WisdomSnapshot>>();
check<Equal<ReturnType<NameEditMachine["snapshot"]>, NameEditSnapshot>>();
check<Equal<ReturnType<LoginMachine["snapshot"]>, LoginSnapshot>>();
check<Equal<ReturnType<typeof LoginMachine.providers>, LoginProvider[]>>();
check<Equal<ReturnType<AuthCallbackMachine["snapshot"]>, CallbackSnapshot>>();
check<Equal<ReturnType<AuthCallbackMachine["tick"]>, CallbackEffect | undefined>>();
check<Equal<Parameters<AuthCallbackMachine["exchanged"]>[0], ExchangeOutcome>>();
check<Equal<ConstructorParameters<typeof Deployment>[0], DeploymentConfig>>();
check<Equal<ReturnType<Deployment["info"]>, DeploymentInfo>>();
check<Equal<ReturnType<TelekinesisCounters["counters"]>, DemoCounters>>();
check<Equal<ReturnType<ThemeMachine["toggle"]>, Theme>>();

// Old or misspelt names do not typecheck (each line must be an error, or tsc fails here).
declare const callback: CallbackSnapshot;
declare const info: DeploymentInfo;
declare const effect: Extract<CallbackEffect, { kind: "navigate" }>;
// @ts-expect-error: the Rust field `show_help` crosses as camelCase `showHelp`.
callback.show_help;
// @ts-expect-error: DeploymentInfo keeps the server's snake_case `github_repo`.
info.githubRepo;
// @ts-expect-error: a navigate effect carries `to`, not `path`.
effect.path;
// @ts-expect-error: `to` names a page, not a path: only the page catalogue spells paths.
effect.to satisfies string;
