// The sign-in's `state`: a random value the login keeps in this tab's sessionStorage and puts in the
// redirect URL, so /auth/callback exchanges only a code from a sign-in this browser started. The
// callback machine (core-wasm) compares the two; this module only makes, stores and takes the value.
// Why and how: docs/identity.md ("The sign-in's state").
import { paths } from "@common/routes";

/** The sessionStorage key of the state of the sign-in this tab started. */
export const SIGN_IN_STATE_KEY = "mg-sign-in-state";
/** The callback URL's query parameter that carries it back. */
export const SIGN_IN_STATE_PARAM = "state";
/** 16 random bytes: 128 bits, 22 base64url characters. */
const STATE_BYTES = 16;

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * A new state, stored for the callback (replacing any earlier one: only the latest sign-in of a tab
 * can complete). Throws when the browser gives no random source or no sessionStorage: a sign-in that
 * could not be checked on return is not started.
 */
export function newSignInState(storage: Pick<Storage, "setItem"> = window.sessionStorage): string {
  const state = base64url(crypto.getRandomValues(new Uint8Array(STATE_BYTES)));
  storage.setItem(SIGN_IN_STATE_KEY, state);
  return state;
}

/** Where the provider sends the browser back: `{origin}/auth/callback?state=...` (spec 9). */
export function callbackUrl(origin: string, state: string): string {
  return `${origin}${paths.authCallback}?${new URLSearchParams({ [SIGN_IN_STATE_PARAM]: state })}`;
}

/**
 * The stored state, removed as it is read: each state completes one callback at most, so opening a
 * callback link again (reload, history, a copy) is refused. Null when there is none or storage fails.
 */
export function takeSignInState(
  storage: Pick<Storage, "getItem" | "removeItem"> | undefined = sessionStorageOrNothing(),
): string | null {
  if (!storage) return null;
  try {
    const state = storage.getItem(SIGN_IN_STATE_KEY);
    storage.removeItem(SIGN_IN_STATE_KEY);
    return state;
  } catch {
    return null;
  }
}

function sessionStorageOrNothing(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.sessionStorage;
  } catch {
    // Storage can throw on access (privacy settings): then there is no state to take.
    return undefined;
  }
}
