// The API's view of the signed-in user (POST /api/auth/current-user, spec 3 and 7).
import { useCallback, useEffect, useState } from "react";
import { apiCall } from "../../lib/api-client";

export interface CurrentUser {
  id?: string | number;
  name?: string | null;
  created_at?: string | number | null;
  updated_at?: string | number | null;
  activeSessions?: number | null;
}

export type CurrentUserState =
  | { status: "loading" }
  | { status: "loaded"; user: CurrentUser }
  | { status: "failed"; message: string };

export function useCurrentUser(): CurrentUserState & {
  reload: () => void;
  /** Takes in fields of the user from another answer (a saved name's, with its new `updated_at`). */
  merge: (fields: Partial<CurrentUser>) => void;
} {
  const [state, setState] = useState<CurrentUserState>({ status: "loading" });
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    apiCall<{ data?: CurrentUser }>("/api/auth/current-user", { method: "POST", auth: true }).then(
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
    (fields: Partial<CurrentUser>) =>
      setState((current) =>
        current.status === "loaded"
          ? { status: "loaded", user: { ...current.user, ...fields } }
          : current,
      ),
    [],
  );
  return { ...state, reload, merge };
}
