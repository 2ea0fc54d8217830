// The id of this browser's sign-in: created at the first authenticated call after signing in, kept in
// local storage beside the identity SDK's tokens, sent as `X-Session-Id`, removed at logout. The
// server counts one session per id ('Active sessions'), so reloads and token refreshes keep it.

/** Where the id is kept; cleared with the tokens at logout. */
export const SESSION_ID_KEY = "mg-session-id";

const VALID = /^[A-Za-z0-9_-]{16,128}$/;

function storage(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

function randomId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** This browser's session id, created now if there is none; undefined when storage is unavailable. */
export function sessionId(): string | undefined {
  const store = storage();
  if (!store) return undefined;
  try {
    const stored = store.getItem(SESSION_ID_KEY);
    if (stored && VALID.test(stored)) return stored;
    const created = randomId();
    store.setItem(SESSION_ID_KEY, created);
    return created;
  } catch {
    return undefined;
  }
}

/** Forgets the id (logout): the next sign-in in this browser is a new session. */
export function clearSessionId(): void {
  try {
    storage()?.removeItem(SESSION_ID_KEY);
  } catch {
    // Storage refused: nothing to clear.
  }
}
