// The session token in browser storage (what the first paint needs to know whether someone is signed
// in), and the identity SDK, @descope/web-js-sdk with its adapter (identity-sdk.ts): separate chunks,
// imported only in sanctified mode and only after first paint (see `loadIdentity`).
import { type IdentityConfig, identityConfig } from "../config/env";
import type { Identity, IdentitySdk } from "./identity-sdk";
import { nextTask } from "./next-task";

export type { Identity, IdentityProfile, Restored } from "./identity-sdk";

/** Storage keys that may hold a session token, in the order they are tried (spec 3, 7). */
export const TOKEN_STORAGE_KEYS = [
  "DS",
  "sessionToken",
  "session_token",
  "token",
  "authToken",
  "idToken",
  "descope_session",
] as const;

/** Fields of a stored JSON value that may hold the token, in the order they are tried (spec 7). */
const TOKEN_FIELDS = ["idToken", "sessionToken", "token"] as const;

function tokenIn(raw: string | null): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  if (value.startsWith("{")) {
    try {
      const parsed = JSON.parse(value) as Record<string, unknown>;
      for (const field of TOKEN_FIELDS) {
        const candidate = parsed[field];
        if (typeof candidate === "string" && candidate.trim()) return candidate.trim();
      }
    } catch {
      // Not JSON after all: fall through and use it raw.
    }
    return undefined;
  }
  // A JSON string literal ("\"eyJ...\"") is unwrapped; anything else is the raw token.
  if (value.startsWith('"')) {
    try {
      const parsed = JSON.parse(value);
      return typeof parsed === "string" && parsed ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return value;
}

/** The first token found in the storages (local, then session), by key order, then field order. */
export function findStoredToken(
  storages: (Pick<Storage, "getItem"> | undefined)[],
): string | undefined {
  for (const storage of storages) {
    if (!storage) continue;
    for (const key of TOKEN_STORAGE_KEYS) {
      let raw: string | null = null;
      try {
        raw = storage.getItem(key);
      } catch {
        // Storage can throw (privacy modes); treat it as empty.
      }
      const token = tokenIn(raw);
      if (token) return token;
    }
  }
  return undefined;
}

function browserStorages(): (Storage | undefined)[] {
  if (typeof window === "undefined") return [];
  const read = (pick: () => Storage) => {
    try {
      return pick();
    } catch {
      return undefined;
    }
  };
  return [read(() => window.localStorage), read(() => window.sessionStorage)];
}

/** The session token: the SDK's own first, then the browser-storage candidates. */
export function lookupToken(
  sdkToken: (() => string | undefined) | undefined,
  storages: (Pick<Storage, "getItem"> | undefined)[] = browserStorages(),
): string | undefined {
  let fromSdk: string | undefined;
  try {
    fromSdk = sdkToken?.() || undefined;
  } catch {
    fromSdk = undefined;
  }
  return fromSdk ?? findStoredToken(storages);
}

let loading: Promise<Identity | null> | null = null;

/** Imports the SDK and its adapter (side by side), then creates the SDK in a task of its own. */
async function createIdentity(projectId: string, config: IdentityConfig): Promise<Identity> {
  const [{ default: createSdk }, { identityFromSdk }] = await Promise.all([
    import("@descope/web-js-sdk"),
    import("./identity-sdk"),
  ]);
  // Evaluating the SDK's module and creating the SDK each take about 30 ms on a phone's CPU: in one
  // task they would block input for their sum, and count in the page's total blocking time.
  await nextTask();
  return identityFromSdk(
    // The web SDK's types are generic over its cookie options; the structural view is what we use.
    createSdk({
      projectId,
      baseUrl: config.baseUrl,
      persistTokens: true,
      autoRefresh: true,
    }) as unknown as IdentitySdk,
    lookupToken,
  );
}

/**
 * The identity SDK, created once with `{ projectId, baseUrl }`; null outside sanctified mode or without
 * a project id. The dynamic import keeps the SDK out of the first paint's bundle.
 */
export function loadIdentity(config: IdentityConfig = identityConfig): Promise<Identity | null> {
  if (!config.sanctified || !config.projectId) return Promise.resolve(null);
  loading ??= createIdentity(config.projectId, config).catch((error: unknown) => {
    console.error("Failed to load the identity SDK", error);
    loading = null;
    return null;
  });
  return loading;
}
