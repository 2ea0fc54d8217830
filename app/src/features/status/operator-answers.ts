// The operator view's one way to ask the server: every GET and write through the app's one fetch
// path (lib/api-client.ts) with the session's token, one loading/answer state, and one reading of a
// refusal (the server's sentence, in the page's words).
import { startTransition, useEffect, useState } from "react";
import { requestRaw } from "../../lib/api-client";

export type Loaded<T> =
  | { status: "loading" }
  | { status: "loaded"; answer: T }
  | { status: "failed"; message: string };

/** The server's error sentence in `text`, else one naming the status. */
export function errorOf(status: number, text: string): string {
  try {
    return (JSON.parse(text) as { error?: string }).error ?? `The server answered ${status}.`;
  } catch {
    return `The server answered ${status}.`;
  }
}

/** GETs `path` with the session's token while `enabled`, on mount and each time `round` changes. */
export function useOperatorGet<T>(path: string, round: number, enabled = true): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ status: "loading" });
  useEffect(() => {
    if (!enabled) {
      setState({ status: "loading" });
      return;
    }
    let live = true;
    void requestRaw(path, { auth: true }).then((answer) => {
      if (!live) return;
      const next: Loaded<T> = !answer
        ? { status: "failed", message: "The server could not be reached." }
        : answer.status !== 200
          ? { status: "failed", message: errorOf(answer.status, answer.text) }
          : { status: "loaded", answer: JSON.parse(answer.text) as T };
      // A transition, rendered in slices React yields between (forms, long delivery logs).
      startTransition(() => setState(next));
    });
    return () => {
      live = false;
    };
  }, [path, round, enabled]);
  return state;
}

/** A write (`method`, default POST) with the session's token: the server's refusal sentence, or
 * null when it was stored. */
export async function send(
  path: string,
  body?: unknown,
  method: "POST" | "PATCH" | "DELETE" = "POST",
): Promise<string | null> {
  const answer = await requestRaw(path, { method, body, auth: true });
  if (!answer) return "The server could not be reached.";
  return answer.status >= 200 && answer.status < 300 ? null : errorOf(answer.status, answer.text);
}
