// The identity SDK operations the app needs, backed by @descope/web-js-sdk. The SDK is a separate chunk,
// imported only in sanctified mode and only after first paint (see `loadIdentity`).
import { type IdentityConfig, identityConfig } from "../config/env";
import type { ExchangeAnswer } from "./wasm/use-auth-callback";
import type { OAuthStartAnswer } from "./wasm/use-login";

/** The identity provider's user (spec 3 reads these; the provider sends more). */
export interface IdentityProfile {
  userId?: string;
  email?: string | null;
  name?: string | null;
  displayName?: string | null;
  username?: string | null;
  givenName?: string | null;
  nickname?: string | null;
  picture?: string | null;
  avatar?: string | null;
  loginIds?: string[] | null;
  OAuth?: Record<string, boolean> | null;
}

export interface Identity {
  startOAuth: (provider: string, redirectUrl: string) => Promise<OAuthStartAnswer>;
  exchange: (code: string) => Promise<ExchangeAnswer>;
  getToken: () => Promise<string | undefined> | string | undefined;
  /** Restores the session from the stored refresh token; the user, or null when nobody is signed in. */
  restore: () => Promise<IdentityProfile | null>;
  /** Ends the session at the provider; the SDK drops its tokens whatever the answer. */
  logout: () => Promise<{ ok: boolean; error?: unknown }>;
  /** Calls back when the SDK drops the session by itself (a refused refresh); returns an unsubscribe. */
  onSessionEnded?: (callback: () => void) => () => void;
}

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

interface SdkAnswer<T> {
  ok: boolean;
  data?: T;
  error?: { errorCode?: string; errorDescription?: string; errorMessage?: string };
}

/** The part of the web SDK the app uses (a structural view, so tests can hand in a stand-in). */
export interface IdentitySdk {
  oauth: {
    start: (provider: string, redirectUrl?: string) => Promise<SdkAnswer<unknown>>;
    exchange: (code: string) => Promise<SdkAnswer<{ user?: unknown }>>;
  };
  refresh: () => Promise<SdkAnswer<{ user?: unknown }>>;
  me: () => Promise<SdkAnswer<unknown>>;
  logout: () => Promise<SdkAnswer<unknown>>;
  getSessionToken: () => string;
  getRefreshToken: () => string;
  /** Called with the new session token, or null when the SDK dropped it (logout, refused refresh). */
  onSessionTokenChange?: (callback: (token: string | null) => void) => () => unknown;
}

/** Wraps a created SDK in the app's operations. Exported for tests with a stand-in SDK. */
export function identityFromSdk(sdk: IdentitySdk): Identity {
  const getToken = () => lookupToken(() => sdk.getSessionToken());
  return {
    startOAuth: async (provider, redirectUrl) => {
      const answer = await sdk.oauth.start(provider, redirectUrl);
      return {
        ok: answer.ok,
        data: answer.data as { url?: string } | undefined,
        error: answer.error,
      };
    },
    exchange: async (code) => {
      const answer = await sdk.oauth.exchange(code);
      return {
        ok: answer.ok,
        data: answer.data ? { user: answer.data.user ?? null } : null,
        error: answer.error ?? null,
      };
    },
    getToken,
    restore: async () => {
      // Nothing stored: no call at all (a visitor who never signed in costs no request).
      if (!sdk.getRefreshToken()) return null;
      const refreshed = await sdk.refresh();
      if (!refreshed.ok) return null;
      const fromRefresh = refreshed.data?.user as IdentityProfile | undefined;
      if (fromRefresh?.userId) return fromRefresh;
      const me = await sdk.me();
      return me.ok && me.data ? (me.data as IdentityProfile) : null;
    },
    logout: async () => {
      const answer = await sdk.logout();
      return { ok: answer.ok, error: answer.error };
    },
    onSessionEnded: (callback) => {
      const unsubscribe = sdk.onSessionTokenChange?.((token) => {
        if (!token) callback();
      });
      return () => {
        unsubscribe?.();
      };
    },
  };
}

let loading: Promise<Identity | null> | null = null;

/**
 * The identity SDK, created once with `{ projectId, baseUrl }`; null outside sanctified mode or without
 * a project id. The dynamic import keeps the SDK out of the first paint's bundle.
 */
export function loadIdentity(config: IdentityConfig = identityConfig): Promise<Identity | null> {
  if (!config.sanctified || !config.projectId) return Promise.resolve(null);
  const projectId = config.projectId;
  loading ??= import("@descope/web-js-sdk").then(
    ({ default: createSdk }) =>
      identityFromSdk(
        // The web SDK's types are generic over its cookie options; the structural view is what we use.
        createSdk({
          projectId,
          baseUrl: config.baseUrl,
          persistTokens: true,
          autoRefresh: true,
        }) as unknown as IdentitySdk,
      ),
    (error: unknown) => {
      console.error("Failed to load the identity SDK", error);
      loading = null;
      return null;
    },
  );
  return loading;
}
