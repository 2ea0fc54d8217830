// Owns the session: restores it on load through the identity SDK's refresh, and ends it on logout.
import {
  type ReactNode,
  startTransition,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { type IdentityConfig, identityConfig } from "../../config/env";
import { requestRaw, setRevokedHandler, setTokenProvider } from "../api-client";
import {
  type Identity,
  loadIdentity,
  lookupToken,
  type Restored,
  TOKEN_STORAGE_KEYS,
} from "../identity";
import { type Session, SessionContext, type SessionState } from "./session-context";
import { clearSessionId } from "./session-id";
import { SignedOutNotice } from "./signed-out-notice";

/** What a browser signed out from another session reads on the page it lands on. */
export const REVOKED_NOTICE =
  "You were signed out: this browser's session was ended from another device or browser.";

/** What every tab of the browser that deleted the account reads (other browsers read REVOKED_NOTICE). */
export const DELETED_NOTICE =
  "Your mg-web account was deleted. Signing in again starts a new account.";

/**
 * Written (and removed at once) in local storage when this browser deleted the account: the other
 * tabs hear it (the `storage` event) and sign out with DELETED_NOTICE at once, not later with
 * REVOKED_NOTICE, which would say another device did it.
 */
export const ACCOUNT_DELETED_KEY = "mg-account-deleted";

/** What the other tabs of a browser read when one of them logged out. */
export const LOGGED_OUT_NOTICE =
  "You were signed out: you logged out in another tab of this browser.";

/**
 * Written (and removed at once) in local storage when this browser logged out, once the server's
 * session has ended and before the identity provider's logout clears the stored tokens: the other
 * tabs hear it first and follow at once, saying so, rather than with REVOKED_NOTICE or
 * ENDED_NOTICE, which would blame another device or browser.
 */
export const LOGGED_OUT_KEY = "mg-logged-out";

/** Tells the other tabs of this browser through local storage (the `storage` event) under `key`. */
function tellOtherTabs(key: string, value = String(Date.now())): void {
  try {
    window.localStorage.setItem(key, value);
    window.localStorage.removeItem(key);
  } catch {
    // Storage refused: the other tabs learn on their next request, as another browser would.
  }
}

/**
 * What a browser reads when the identity provider refused its stored sign-in on load: signed out
 * from another session (which ends the provider's refresh token where it can: docs/identity.md,
 * "Signing out from the app"), or expired.
 */
export const ENDED_NOTICE =
  "You were signed out: this browser's sign-in has ended, from another device or browser or because it expired.";

/**
 * What a browser reads when the identity provider refused its refresh as too many requests (a
 * 429): the SDK drops its tokens on any 4xx, so it is signed out, though nothing ended its sign-in.
 */
export const RATE_LIMITED_NOTICE =
  "You were signed out: the sign-in service refused too many requests. Sign in again in a minute.";

/**
 * What a page reads when the identity provider could not restore its stored sign-in on load (a 5xx,
 * or no answer): not signed in here, though the tokens are kept for the next load.
 */
export const UNREACHABLE_NOTICE =
  "We could not reach the sign-in service, so you are not signed in on this page. Reload to try again.";

/**
 * Written (and removed at once) in local storage, its value the notice, when a tab was signed out
 * by an answer (a 401 `session_revoked`, a refused refresh): the browser's other tabs, whose tokens
 * went with it, follow at once saying the same.
 */
export const SIGNED_OUT_KEY = "mg-signed-out";

/** The notices another tab may pass on under SIGNED_OUT_KEY. */
const PASSED_ON = [REVOKED_NOTICE, ENDED_NOTICE, RATE_LIMITED_NOTICE];

/** The notice a stored sign-in that did not restore on load shows, if any. */
function noticeFor(restored: Restored): string | undefined {
  if (restored.status === "unreachable") return UNREACHABLE_NOTICE;
  if (restored.status !== "refused") return undefined;
  return restored.code === 429 ? RATE_LIMITED_NOTICE : ENDED_NOTICE;
}

/** The SDK keeps its refresh token under this key; without it there is no session to restore. */
const REFRESH_TOKEN_KEY = "DSR";

function hasStoredSession(): boolean {
  try {
    return Boolean(window.localStorage.getItem(REFRESH_TOKEN_KEY));
  } catch {
    return false;
  }
}

/**
 * Removes every trace of the session from this browser: the SDK's tokens (session, refresh, id) and
 * the other token candidates, in local and session storage, and the session id. Logout does this
 * whatever the identity provider answered, so a shared computer is never left signed in.
 */
export function clearStoredSession(): void {
  const keys = [REFRESH_TOKEN_KEY, "DSI", ...TOKEN_STORAGE_KEYS];
  for (const pick of [() => window.localStorage, () => window.sessionStorage]) {
    try {
      const store = pick();
      for (const key of keys) store.removeItem(key);
    } catch {
      // Storage refused: nothing stored there.
    }
  }
  clearSessionId();
}

/** The session state a restore comes to. */
function stateOf(restored: Restored): SessionState {
  return restored.status === "signed-in"
    ? { status: "signed-in", user: restored.user }
    : { status: "anonymous" };
}

/** The notice another tab told this one through local storage, if the event is one. */
function toldNotice(event: StorageEvent): string | undefined {
  if (!event.newValue) return undefined;
  if (event.key === ACCOUNT_DELETED_KEY) return DELETED_NOTICE;
  if (event.key === LOGGED_OUT_KEY) return LOGGED_OUT_NOTICE;
  if (event.key !== SIGNED_OUT_KEY) return undefined;
  return PASSED_ON.includes(event.newValue) ? event.newValue : ENDED_NOTICE;
}

export interface SessionProviderProps {
  children: ReactNode;
  config?: IdentityConfig;
  /** Injected in tests; defaults to the real SDK loader. */
  load?: (config: IdentityConfig) => Promise<Identity | null>;
}

export function SessionProvider({
  children,
  config = identityConfig,
  load = loadIdentity,
}: SessionProviderProps) {
  const enabled = config.sanctified && Boolean(config.projectId);
  const [state, setState] = useState<SessionState>(
    enabled ? { status: "loading" } : { status: "anonymous" },
  );
  const [completing, setCompleting] = useState(false);
  const identity = useRef<Identity | null>(null);
  const [notice, setNotice] = useState<string>();
  const signingOut = useRef(false);
  const deleting = useRef(false);
  const signedIn = useRef(false);
  signedIn.current = state.status === "signed-in";
  // Signed out because the stored refresh token went, in another tab: the notice that tab passes on
  // (it comes just after) says why.
  const tokenWent = useRef(false);
  if (signedIn.current) tokenWent.current = false;

  const ensureIdentity = useCallback(async () => {
    if (!enabled) return null;
    if (!identity.current) {
      identity.current = await load(config);
      // A refresh the provider refuses ends the session without a logout: follow it.
      identity.current?.onSessionEnded?.(() => {
        clearSessionId();
        setState({ status: "anonymous" });
      });
    }
    return identity.current;
  }, [enabled, load, config]);

  const getToken = useCallback(async () => {
    const id = identity.current;
    return id ? await id.getToken() : lookupToken(undefined);
  }, []);

  /** What the stored session restores to (an SDK that did not load, or threw, reached nobody). */
  const restore = useCallback(async (): Promise<Restored> => {
    try {
      const id = await ensureIdentity();
      if (id) return await id.restore();
    } catch (error) {
      console.error("Failed to restore the session", error);
    }
    return { status: "unreachable" };
  }, [ensureIdentity]);

  const reload = useCallback(async (): Promise<SessionState> => {
    const next = stateOf(await restore());
    setState(next);
    return next;
  }, [restore]);

  // The identity provider's logout and the storage cleared: what every way out ends with.
  const endHere = useCallback(async () => {
    try {
      const id = await ensureIdentity();
      const answer = await id?.logout();
      if (answer && !answer.ok) console.error("Logout failed", answer.error);
    } catch (error) {
      console.error("Logout failed", error);
    }
    clearStoredSession();
    // At once, not at the next render: another tab clearing the storage now says nothing here.
    signedIn.current = false;
    setState({ status: "anonymous" });
  }, [ensureIdentity]);

  const logout = useCallback(async () => {
    // First the server, while the token still works: 'Active sessions' counts one fewer.
    try {
      const token = await getToken();
      if (token) await requestRaw("/api/auth/logout", { method: "POST", token });
    } catch (error) {
      console.error("Ending the server session failed", error);
    }
    tellOtherTabs(LOGGED_OUT_KEY);
    await endHere();
  }, [endHere, getToken]);

  // As a logout does, without the API's logout: the session has ended there already. The other tabs
  // lose their tokens with this one's, and follow saying the same (a deletion tells them itself).
  const signOutHere = useCallback(
    async (message: string) => {
      if (signingOut.current) return;
      signingOut.current = true;
      if (PASSED_ON.includes(message)) tellOtherTabs(SIGNED_OUT_KEY, message);
      await endHere();
      setNotice(message);
      signingOut.current = false;
    },
    [endHere],
  );

  useEffect(() => {
    setTokenProvider(getToken);
    return () => setTokenProvider(undefined);
  }, [getToken]);

  const deleteAccount = useCallback(
    async (remove: () => Promise<unknown>) => {
      deleting.current = true;
      try {
        await remove();
      } catch (error) {
        deleting.current = false;
        throw error;
      }
      tellOtherTabs(ACCOUNT_DELETED_KEY);
      // (When a request's 401 began the sign-out already, it chose this notice too.)
      await signOutHere(DELETED_NOTICE);
      deleting.current = false;
    },
    [signOutHere],
  );

  useEffect(() => {
    setRevokedHandler(() => void signOutHere(deleting.current ? DELETED_NOTICE : REVOKED_NOTICE));
    return () => setRevokedHandler(undefined);
  }, [signOutHere]);

  // Another tab of this browser deleted the account, logged out or was signed out: that tab ends
  // the session at the server and the identity provider and clears the storage; this one follows
  // without a call (a second logout at the provider would only fail), saying what that tab says. A
  // refresh token gone from the storage while signed in (whoever removed it) signs out too.
  useEffect(() => {
    const follow = (message: string) => {
      signedIn.current = false;
      clearSessionId();
      setState({ status: "anonymous" });
      setNotice(message);
    };
    const heard = (event: StorageEvent) => {
      if (event.key === REFRESH_TOKEN_KEY || event.key === null) {
        // A tab signing itself out (a deletion included) says why itself, whoever clears first.
        if (!signedIn.current || signingOut.current || deleting.current || hasStoredSession()) {
          return;
        }
        follow(ENDED_NOTICE);
        tokenWent.current = true;
        return;
      }
      const message = toldNotice(event);
      if (!message || !(signedIn.current || tokenWent.current)) return;
      if (tokenWent.current) setNotice(message);
      else if (message === DELETED_NOTICE) void signOutHere(DELETED_NOTICE);
      else follow(message);
      tokenWent.current = false;
    };
    window.addEventListener("storage", heard);
    return () => window.removeEventListener("storage", heard);
  }, [signOutHere]);

  // After first paint. A visitor with nothing stored is anonymous at once and never downloads the SDK
  // until they open the login modal. The first state is set in a transition: the session reaches
  // every page through context, and an urgent update would make React hydrate the page's part not
  // yet hydrated in one blocking task (70 ms here on /apotheosis) instead of in slices.
  useEffect(() => {
    if (!enabled) return;
    if (!hasStoredSession()) {
      startTransition(() => setState({ status: "anonymous" }));
      return;
    }
    void restore().then((restored) => {
      // The SDK drops its tokens when the provider refuses the refresh (a 4xx), not on an outage.
      const message = noticeFor(restored);
      if (restored.status === "refused" && message) {
        clearStoredSession();
        // The other tabs heard the tokens go, and take this for why.
        tellOtherTabs(SIGNED_OUT_KEY, message);
      }
      if (message) setNotice(message);
      startTransition(() => setState(stateOf(restored)));
    });
  }, [enabled, restore]);

  const session = useMemo<Session>(
    () => ({
      state,
      enabled,
      ensureIdentity,
      reload,
      getToken,
      logout,
      signOutHere,
      deleteAccount,
      completing,
      setCompleting,
    }),
    [
      state,
      enabled,
      ensureIdentity,
      reload,
      getToken,
      logout,
      signOutHere,
      deleteAccount,
      completing,
    ],
  );
  return (
    <SessionContext.Provider value={session}>
      {children}
      {notice && <SignedOutNotice message={notice} onDismiss={() => setNotice(undefined)} />}
    </SessionContext.Provider>
  );
}
