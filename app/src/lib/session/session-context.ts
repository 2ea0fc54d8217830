// The signed-in state shared by the nav, the dashboard and the protected routes.
import { createContext, useContext } from "react";
import type { Identity, IdentityProfile } from "../identity";

export type SessionState =
  | { status: "loading" }
  | { status: "anonymous" }
  | { status: "signed-in"; user: IdentityProfile };

export interface Session {
  state: SessionState;
  /** Sign-in exists at all (sanctified mode with an identity project). */
  enabled: boolean;
  /** The identity SDK, loading it on first use; null when sign-in is off or the SDK failed to load. */
  ensureIdentity: () => Promise<Identity | null>;
  /** Re-reads the session from the SDK (after the callback's exchange, say). */
  reload: () => Promise<SessionState>;
  /** The session's bearer token for API calls. */
  getToken: () => Promise<string | undefined>;
  /** Ends the session; a failure is logged and the session is cleared anyway (spec 8). */
  logout: () => Promise<void>;
  /**
   * Signs this browser out without asking the API (its session already ended there: signed out
   * from another session, or the account deleted) and shows `notice` until dismissed.
   */
  signOutHere?: (notice: string) => Promise<void>;
  /**
   * Deletes the account by `remove` (the API call; its failure is thrown). A sign-out that comes
   * while it runs (another request answered 401 once the deletion committed) says the account was
   * deleted; once it succeeded, this tab and every other tab of this browser sign out saying so.
   */
  deleteAccount?: (remove: () => Promise<unknown>) => Promise<void>;
  /** The callback page is completing a sign-in (the nav then offers no Log in or Sign up). */
  completing?: boolean;
  /** The callback page says when it starts and stops completing a sign-in. */
  setCompleting?: (completing: boolean) => void;
}

const anonymous: Session = {
  state: { status: "anonymous" },
  enabled: false,
  ensureIdentity: async () => null,
  reload: async () => ({ status: "anonymous" }),
  getToken: async () => undefined,
  logout: async () => {},
};

export const SessionContext = createContext<Session>(anonymous);

/** The current session; outside a provider, an anonymous visitor with sign-in off. */
export function useSession(): Session {
  return useContext(SessionContext);
}
