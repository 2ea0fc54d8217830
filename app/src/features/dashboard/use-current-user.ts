// The API's view of the signed-in user (POST /api/auth/current-user, spec 3 and 7).

import type { CurrentUser, UserAnswer } from "@common/http-types";
import { useCallback } from "react";
import { type AnswerState, useAnswer } from "./use-answer";

/**
 * The user as the server answered it (its type generated from the server's, common/http-types.ts).
 * Each field may still be missing: the page shows what it has of an answer that is not the server's
 * (a proxy's page that happens to be JSON) rather than failing.
 */
export type LoadedUser = Partial<CurrentUser>;

type LoadedState = { status: "loaded"; user: LoadedUser };
export type CurrentUserState = AnswerState<LoadedState>;

const loadedUser = (answer: Partial<UserAnswer> | null): LoadedState => ({
  status: "loaded",
  user: answer?.data ?? {},
});

/** The user once `signedIn` (loading until then: use-answer.ts). */
export function useCurrentUser(signedIn: boolean): CurrentUserState & {
  reload: () => void;
  /** Takes in fields of the user from another answer (a saved name's, with its new `updated_at`). */
  merge: (fields: LoadedUser) => void;
} {
  const { state, setState, reload } = useAnswer<UserAnswer, LoadedState>(
    "/api/auth/current-user",
    loadedUser,
    signedIn,
  );
  const merge = useCallback(
    (fields: LoadedUser) =>
      setState((current) =>
        current.status === "loaded"
          ? { status: "loaded", user: { ...current.user, ...fields } }
          : current,
      ),
    [setState],
  );
  return { ...state, reload, merge };
}
