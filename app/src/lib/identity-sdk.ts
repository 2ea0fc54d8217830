// The identity SDK's adapter: the app's operations on a created @descope/web-js-sdk. Loaded with the
// SDK itself (identity.ts's `loadIdentity`), never on a first visit.
import type { IdentityUser } from "./wasm/core";
import type { ExchangeAnswer } from "./wasm/use-auth-callback";
import type { OAuthStartAnswer } from "./wasm/use-login";

/**
 * The identity provider's user: the fields the core reads (its `IdentityUser`, spec 3) and the
 * ones the app reads itself. The provider sends more.
 */
export interface IdentityProfile extends IdentityUser {
  userId?: string;
  email?: string | null;
  OAuth?: Record<string, boolean> | null;
}

export interface Identity {
  startOAuth: (provider: string, redirectUrl: string) => Promise<OAuthStartAnswer>;
  exchange: (code: string) => Promise<ExchangeAnswer>;
  getToken: () => Promise<string | undefined> | string | undefined;
  /** Restores the session from the stored refresh token (what became of it: `Restored`). */
  restore: () => Promise<Restored>;
  /** Ends the session at the provider; the SDK drops its tokens whatever the answer. */
  logout: () => Promise<{ ok: boolean; error?: unknown }>;
  /** Calls back when the SDK drops the session by itself (a refused refresh); returns an unsubscribe. */
  onSessionEnded?: (callback: () => void) => () => void;
}

/**
 * What restoring the stored session came to: the user; nothing stored; refused by the provider
 * with a 4xx `code` (the SDK then drops its tokens: the browser is signed out); or no answer that
 * says either (a 5xx, or none at all), which keeps the tokens for the next try.
 */
export type Restored =
  | { status: "signed-in"; user: IdentityProfile }
  | { status: "none" }
  | { status: "refused"; code: number }
  | { status: "unreachable" };

/** The restore's outcome for an answer that was not ok, by its HTTP status. */
function notRestored(code: number | undefined): Restored {
  return code !== undefined && code >= 400 && code < 500
    ? { status: "refused", code }
    : { status: "unreachable" };
}

/** Finds the session token, given the SDK's own getter. */
export type TokenLookup = (sdkToken: () => string | undefined) => string | undefined;

interface SdkAnswer<T> {
  ok: boolean;
  /** The HTTP status of the answer, when one arrived. */
  code?: number;
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

/**
 * Wraps a created SDK in the app's operations. `lookup` finds the session token, the SDK's own first
 * (identity.ts's `lookupToken`, handed in: that module loads this one). Exported for tests with a
 * stand-in SDK.
 */
export function identityFromSdk(sdk: IdentitySdk, lookup: TokenLookup): Identity {
  const getToken = () => lookup(() => sdk.getSessionToken());
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
      if (!sdk.getRefreshToken()) return { status: "none" };
      const refreshed = await sdk.refresh();
      if (!refreshed.ok) return notRestored(refreshed.code);
      const fromRefresh = refreshed.data?.user as IdentityProfile | undefined;
      if (fromRefresh?.userId) return { status: "signed-in", user: fromRefresh };
      const me = await sdk.me();
      if (!me.ok) return notRestored(me.code);
      return me.data
        ? { status: "signed-in", user: me.data as IdentityProfile }
        : { status: "unreachable" };
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
