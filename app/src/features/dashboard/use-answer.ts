// What the dashboard's reads share: one authenticated POST, asked again on `reload`, its answer
// turned into the loaded state, its failure into the message the page shows.

import { type Dispatch, type SetStateAction, useCallback, useEffect, useState } from "react";
import { apiCall } from "../../lib/api-client";

/** The message a failed call shows: the API's own, else a generic one. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : "Server error occurred";
}

export type AnswerState<Loaded> =
  | { status: "loading" }
  | Loaded
  | { status: "failed"; message: string };

/**
 * POSTs to `path` (with the session's token) once `signedIn` (on mount when it is already) and on
 * each `reload`; `loaded` turns the answer into the state (a module-level function, so it is the
 * same on every render). Until then the state stays `loading`: the page's frame, while the session
 * is read, asks nothing. A call whose component has gone, or that a later round replaced, changes
 * nothing.
 */
export function useAnswer<Answer, Loaded extends { status: "loaded" }>(
  path: string,
  loaded: (answer: Partial<Answer> | null) => Loaded,
  signedIn: boolean,
): {
  state: AnswerState<Loaded>;
  setState: Dispatch<SetStateAction<AnswerState<Loaded>>>;
  reload: () => void;
} {
  const [state, setState] = useState<AnswerState<Loaded>>({ status: "loading" });
  const [round, setRound] = useState(0);

  // `round` is what asks again.
  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    apiCall<Partial<Answer> | null>(path, { method: "POST", auth: true }).then(
      (answer) => live && setState(loaded(answer)),
      (error: unknown) => live && setState({ status: "failed", message: messageOf(error) }),
    );
    return () => {
      live = false;
    };
  }, [path, loaded, round, signedIn]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { state, setState, reload };
}
