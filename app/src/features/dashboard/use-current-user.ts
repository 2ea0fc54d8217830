// The API's view of the signed-in user (POST /api/auth/current-user, spec 3 and 7).

import type { CurrentUser, UserAnswer } from "@common/http-types";
import { useCallback, useEffect, useState } from "react";
import { apiCall } from "../../lib/api-client";

/**
 * The user as the server answered it (its type generated from the server's, common/http-types.ts).
 * Each field may still be missing: the page shows what it has of an answer that is not the server's
 * (a proxy's page that happens to be JSON) rather than failing.
 */
export type LoadedUser = Partial<CurrentUser>;

export type CurrentUserState =
  | { status: "loading" }
  | { status: "loaded"; user: LoadedUser }
  | { status: "failed"; message: string };

export function useCurrentUser(): CurrentUserState & {
  reload: () => void;
  /** Takes in fields of the user from another answer (a saved name's, with its new `updated_at`). */
  merge: (fields: LoadedUser) => void;
} {
  const [state, setState] = useState<CurrentUserState>({ status: "loading" });
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    apiCall<Partial<UserAnswer> | null>("/api/auth/current-user", {
      method: "POST",
      auth: true,
    }).then(
      (answer) => live && setState({ status: "loaded", user: answer?.data ?? {} }),
      (error: unknown) =>
        live &&
        setState({
          status: "failed",
          message: error instanceof Error ? error.message : "Server error occurred",
        }),
    );
    return () => {
      live = false;
    };
  }, [round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  const merge = useCallback(
    (fields: LoadedUser) =>
      setState((current) =>
        current.status === "loaded"
          ? { status: "loaded", user: { ...current.user, ...fields } }
          : current,
      ),
    [],
  );
  return { ...state, reload, merge };
}
