// The callback page's four sign-in checks: each one real request (or config read), with a hint on failure.

import { paths } from "@common/routes";
import type { IdentityConfig } from "../../config/env";
import { probe, requestRaw } from "../../lib/api-client";
import type { Identity } from "../../lib/identity";

export interface CheckResult {
  id: "config" | "identity" | "redirect" | "api";
  title: string;
  passed: boolean;
  /** What was found (pass) or what to do about it (fail). */
  hint: string;
}

export interface DiagnosticDeps {
  config: IdentityConfig;
  origin: string;
  ensureIdentity: () => Promise<Identity | null>;
}

function describe(error: unknown): string {
  if (error && typeof error === "object") {
    const e = error as { errorDescription?: string; errorMessage?: string; message?: string };
    return e.errorDescription ?? e.errorMessage ?? e.message ?? "unknown error";
  }
  return String(error ?? "unknown error");
}

export function checkConfig(config: IdentityConfig): CheckResult {
  const title = "Identity configuration present";
  if (!config.projectId)
    return {
      id: "config",
      title,
      passed: false,
      hint: "No identity project ID is set. Set IDENTITY_PROJECT_ID (or VITE_IDENTITY_PROJECT_ID) and redeploy.",
    };
  return {
    id: "config",
    title,
    passed: true,
    hint: `Project ${config.projectId} at ${config.baseUrl}.`,
  };
}

export async function checkIdentityService(config: IdentityConfig): Promise<CheckResult> {
  const title = "Identity service reachable";
  if (!config.projectId)
    return { id: "identity", title, passed: false, hint: "Skipped: no identity project ID." };
  const url = `${config.baseUrl}/v2/keys/${encodeURIComponent(config.projectId)}`;
  const answer = await probe(url);
  if (!answer)
    return {
      id: "identity",
      title,
      passed: false,
      hint: `${url} could not be reached: check the identity base URL, the network, and CORS for this origin.`,
    };
  const keys = keysOf(answer.text);
  if (answer.status >= 200 && answer.status < 300 && keys > 0)
    return {
      id: "identity",
      title,
      passed: true,
      hint: `${url} answered with ${keys} signing key(s).`,
    };
  return {
    id: "identity",
    title,
    passed: false,
    hint: `${url} answered ${answer.status} without signing keys: check the project ID and the identity base URL.`,
  };
}

/** How many signing keys a keys endpoint's answer lists (0 for anything else). */
function keysOf(text: string): number {
  try {
    const { keys } = JSON.parse(text) as { keys?: unknown };
    return Array.isArray(keys) ? keys.length : 0;
  } catch {
    return 0;
  }
}

export async function checkRedirectAllowed(
  ensureIdentity: () => Promise<Identity | null>,
  origin: string,
): Promise<CheckResult> {
  const title = "This origin allowed as a redirect";
  const redirect = `${origin}${paths.authCallback}`;
  try {
    const identity = await ensureIdentity();
    if (!identity)
      return {
        id: "redirect",
        title,
        passed: false,
        hint: "The identity SDK could not be loaded.",
      };
    // Starting OAuth without following the URL asks the provider whether it would redirect here.
    const answer = await identity.startOAuth("discord", redirect);
    if (answer.ok && answer.data?.url)
      return { id: "redirect", title, passed: true, hint: `${redirect} is accepted.` };
    return {
      id: "redirect",
      title,
      passed: false,
      hint: `The identity provider refused ${redirect} (${describe(answer.error)}). Add ${origin} to the project's approved domains, and check that Discord is enabled.`,
    };
  } catch (error) {
    return {
      id: "redirect",
      title,
      passed: false,
      hint: `Starting OAuth failed (${describe(error)}).`,
    };
  }
}

export async function checkApi(): Promise<CheckResult> {
  const title = "API reachable and accepting the session";
  const answer = await requestRaw("/api/auth/current-user", { method: "POST", auth: true });
  if (!answer)
    return {
      id: "api",
      title,
      passed: false,
      hint: "The API did not answer: check that the server is running and reachable from this page.",
    };
  if (answer.status === 200)
    return { id: "api", title, passed: true, hint: "The API accepted the session token." };
  if (answer.status === 401)
    return {
      id: "api",
      title,
      passed: false,
      hint: "The API answered but rejected the session (401): sign in again, and check that the server uses the same identity project.",
    };
  return {
    id: "api",
    title,
    passed: false,
    hint: `The API answered ${answer.status}: see the server's log.`,
  };
}

/** Runs the four checks; they are independent, so they run together. */
export async function runDiagnostics(deps: DiagnosticDeps): Promise<CheckResult[]> {
  return Promise.all([
    Promise.resolve(checkConfig(deps.config)),
    checkIdentityService(deps.config),
    checkRedirectAllowed(deps.ensureIdentity, deps.origin),
    checkApi(),
  ]);
}
