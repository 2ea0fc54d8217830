//! TypeScript shapes of the snapshots and effects that cross the boundary as plain objects.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
export type HealthValue = "unknown" | "healthy" | "unhealthy" | "n/a";
export interface HealthSnapshot { api: HealthValue; db: HealthValue; queue: HealthValue }
export interface CheckPlan { round: number; checkApi: boolean; checkDb: boolean }
export interface DeploymentFlags { apotheosis: boolean; sanctified: boolean; ethereal: boolean }
export type DeploymentType = "apotheosis" | "ethereal" | "telekinesis" | "metagenesis";
export interface LandingText { title: string; subtitle: string; description: string }
export interface DeploymentConfig {
  id?: string; name?: string; deploymentType?: string; flagsJson?: string; sanctified?: boolean;
  githubRepo?: string; telekinesisQueueUrl?: string;
}
export interface DeploymentInfo {
  id: string; name: string; type: DeploymentType; flags: DeploymentFlags; status: "active"; created: number;
  github_repo: string; telekinesis_queue_url?: string; landing: LandingText; ethereal: boolean;
}
export type WisdomSnapshot =
  | { status: "idle" } | { status: "testing" }
  | { status: "success"; quote: string; orator: string }
  | { status: "error"; error: string; instructions?: string; message?: string };
export interface NameEditSnapshot {
  mode: "view" | "editing" | "saving"; name: string; draft: string;
  notice: { kind: "success" | "error"; text: string } | null;
}
export interface LoginSnapshot { loading: string | null; error: string | null }
export interface LoginProvider { id: string; label: string }
export interface IdentityUser {
  name?: string | null; displayName?: string | null; username?: string | null; givenName?: string | null;
  nickname?: string | null; picture?: string | null; avatar?: string | null; loginIds?: string[] | null;
}
export interface ExchangeOutcome { ok: boolean; user?: IdentityUser | null; errorCode?: string | null; message?: string | null }
export interface ProfileUpdate {
  name?: string;
  profile: { oauthProvider: string; oauthData: { username: string | null; displayName: string | null; avatar: string | null } };
}
export type CallbackEffect =
  | { kind: "exchange"; code: string } | { kind: "readUser" }
  | { kind: "updateProfile"; payload: ProfileUpdate } | { kind: "navigate"; to: string };
export interface CallbackSnapshot {
  phase: "idle" | "exchanging" | "readingUser" | "updatingProfile" | "done" | "failed";
  message: string | null; showHelp: boolean; redirectTo: string | null;
}
export interface DemoCounters {
  functionsDeployed: number; invocationsPerMinute: number; messagesQueued: number; avgLatencyMs: number;
  generation: number;
}
"#;
