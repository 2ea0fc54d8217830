// The signed-in person's sessions (POST /api/auth/sessions) and signing the others out
// (POST /api/auth/sessions/revoke, /revoke-others). A session of this browser that was itself
// signed out elsewhere answers 401 `session_revoked`, which the API client hands to the session
// provider (it signs this browser out); here that is just a failed call.

import type { AccountSession, RevokeAnswer, SessionsAnswer } from "@common/http-types";
import { useCallback } from "react";
import { ApiError, apiCall } from "../../lib/api-client";
import { type AnswerState, messageOf, useAnswer } from "./use-answer";

type LoadedState = { status: "loaded"; sessions: AccountSession[] };

/** What a session not bound to its sign-in can still do once signed out. */
const RENEWS =
  "It can sign back in on its own with your identity provider for up to 30 days: to end that, also change your password there.";
export type SessionsState = AnswerState<LoadedState>;

const loadedSessions = (answer: Partial<SessionsAnswer> | null): LoadedState => ({
  status: "loaded",
  sessions: answer?.data?.sessions ?? [],
});

/**
 * What the last sign-out said, for the list's status line; `changed` when the account's sessions are
 * not what the page showed (signed out now, or ended already).
 */
export type SignOutResult = { ok: boolean; message: string; changed: boolean };

/** The sessions once `signedIn` (loading until then: use-answer.ts), and signing them out. */
export function useSessions(signedIn: boolean): {
  state: SessionsState;
  reload: () => void;
  signOut: (session: AccountSession) => Promise<SignOutResult>;
  signOutOthers: () => Promise<SignOutResult>;
} {
  const { state, reload } = useAnswer<SessionsAnswer, LoadedState>(
    "/api/auth/sessions",
    loadedSessions,
    signedIn,
  );

  const revoke = useCallback(
    async (path: string, body: unknown, done: (count: number) => string) => {
      try {
        const answer = await apiCall<Partial<RevokeAnswer> | null>(path, {
          method: "POST",
          auth: true,
          body,
        });
        reload();
        return { ok: true, message: done(answer?.data?.revoked ?? 0), changed: true };
      } catch (error) {
        // 404 `session_not_found`: another tab or device ended it already; the list is read again.
        const ended = error instanceof ApiError && error.status === 404;
        if (ended) reload();
        return { ok: false, message: messageOf(error), changed: ended };
      }
    },
    [reload],
  );

  // "Signed out" only of what cannot go on: a session not bound to its sign-in at the identity
  // provider is refused the sign-in it holds, but may renew it on its own (docs/identity.md,
  // "Signing out from the app").
  const signOut = useCallback(
    (session: AccountSession) =>
      revoke("/api/auth/sessions/revoke", { id: session.id }, () =>
        session.boundToSignIn
          ? `${session.label} signed out.`
          : `${session.label}: its sign-in is refused. ${RENEWS}`,
      ),
    [revoke],
  );
  const others = state.status === "loaded" ? state.sessions.filter((s) => !s.current) : [];
  const renewing = others.filter((session) => !session.boundToSignIn).length;
  const signOutOthers = useCallback(
    () =>
      revoke("/api/auth/sessions/revoke-others", {}, (count) => {
        const done =
          count === 1 ? "1 other session signed out." : `${count} other sessions signed out.`;
        if (renewing === 0) return done;
        const some = renewing === 1 ? "1 of them" : `${renewing} of them`;
        return `${count} other sessions: their sign-ins are refused, but ${some} can sign back in on its own with your identity provider for up to 30 days.`;
      }),
    [revoke, renewing],
  );
  return { state, reload, signOut, signOutOthers };
}
