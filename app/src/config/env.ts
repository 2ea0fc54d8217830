// Configuration, read once: the server's injected runtime values first, then the build's VITE_* variables,
// then defaults that make a plain `vite build` work.
import { type InjectedConfig, readRuntimeConfig } from "./runtime-config";

const env = import.meta.env;
const runtime = readRuntimeConfig();

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function flag(value: unknown): boolean | undefined {
  const raw = text(value)?.toLowerCase();
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  return undefined;
}

/** What the build injected about this deployment; absent values fall back to the core's defaults. */
export const deploymentConfig = {
  id: text(runtime.deploymentId) ?? text(env.VITE_DEPLOYMENT_ID),
  name: text(env.VITE_DEPLOYMENT_NAME),
  deploymentType: text(runtime.deploymentType) ?? text(env.VITE_DEPLOYMENT_TYPE),
  /** Raw JSON with keys apotheosis, sanctified, ethereal; parsed (and checked) by the wasm core. */
  flagsJson: text(runtime.deploymentFlags) ?? text(env.VITE_DEPLOYMENT_FLAGS),
  /** The sanctified switch (runtime, then build, then on); overrides flags.sanctified. */
  sanctified: runtime.sanctified ?? flag(env.VITE_SANCTIFIED) ?? true,
  githubRepo: text(env.VITE_GITHUB_REPO),
  telekinesisQueueUrl: text(env.VITE_TELEKINESIS_QUEUE_URL),
} as const;

/** Run the API and database health checks even on an ethereal deployment. */
export const forceHealthChecks = flag(env.VITE_FORCE_HEALTH_CHECKS) ?? false;

/** Prefix of every API call; empty means same origin (the server hosts the app). */
export const apiBaseUrl = text(env.VITE_API_URL) ?? "";

/** Where sign-in happens: the sanctified switch and the identity project the SDK talks to. */
export interface IdentityConfig {
  /** Sign-in (and /auth/callback, /home) exist only in sanctified mode. */
  sanctified: boolean;
  /** Undefined: sanctified mode cannot work, and the configuration notice replaces every screen. */
  projectId: string | undefined;
  /** Base URL of the identity service, always explicit (the SDK would otherwise guess a hosted host). */
  baseUrl: string;
}

/** The hosted identity provider's API, used when nothing names another identity service. */
export const HOSTED_IDENTITY_BASE_URL = "https://api.descope.com";

/**
 * Resolves the identity config. Runtime values beat build values; an injected empty base URL means the
 * page's own origin (the server's embedded identity emulator). Sanctified mode is on unless switched off
 * (spec 9: forced on in this build).
 */
export function resolveIdentityConfig(
  injected: InjectedConfig,
  build: Record<string, unknown>,
  origin: string,
): IdentityConfig {
  const injectedBase = injected.identityBaseUrl;
  const baseUrl =
    injectedBase !== undefined
      ? injectedBase.trim() || origin
      : (text(build.VITE_IDENTITY_BASE_URL) ?? HOSTED_IDENTITY_BASE_URL);
  return {
    sanctified: injected.sanctified ?? flag(build.VITE_SANCTIFIED) ?? true,
    projectId: text(injected.identityProjectId) ?? text(build.VITE_IDENTITY_PROJECT_ID),
    baseUrl: baseUrl.replace(/\/+$/, ""),
  };
}

export const identityConfig: IdentityConfig = resolveIdentityConfig(
  runtime,
  env,
  typeof window === "undefined" ? "" : window.location.origin,
);

/** Sanctified mode is on but no identity project is configured: only the configuration notice shows. */
export const identityMisconfigured = identityConfig.sanctified && !identityConfig.projectId;
