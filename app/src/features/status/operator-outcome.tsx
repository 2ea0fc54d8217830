// The operator forms' posting and outcome line: one post through the app's fetch path, its outcome
// (the server's sentence for a refusal, in the page's words) on a status line that takes focus once it
// says something, so a keyboard or screen-reader user lands on the result of every submit.
import { type RefObject, useContext, useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { OutcomeSlot } from "./operator-action";
import { send } from "./operator-answers";

export type Message = { ok: boolean; text: string } | null;

/** Runs a post, keeps its outcome for the form's status line, and moves focus to that line once
 * it says the outcome (a keyboard or screen-reader user lands on the result, not the page top). */
export function usePost(onPosted: () => void) {
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const outcome = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (message) outcome.current?.focus();
  }, [message]);
  const run = async (
    path: string,
    body: unknown,
    done: string,
    method: "POST" | "PATCH" | "DELETE" = "POST",
  ) => {
    setBusy(true);
    setMessage(null);
    const error = await send(path, body, method);
    setBusy(false);
    setMessage(error === null ? { ok: true, text: done } : { ok: false, text: error });
    if (error === null) onPosted();
    return error === null;
  };
  return { message, busy, run, outcome };
}

/** The outcome line, put after the action's disclosure when inside one (operator-action.tsx says
 * why): the next Tab from it reaches the next control after the form, Shift+Tab the form's last. */
export function Outcome({
  message,
  outcome,
}: {
  message: Message;
  outcome: RefObject<HTMLParagraphElement | null>;
}) {
  const slot = useContext(OutcomeSlot);
  const line = (
    <p
      ref={outcome}
      tabIndex={-1}
      className={`operator__outcome${message?.ok === false ? " operator__outcome--error" : ""}`}
      role="status"
    >
      {message?.text ?? ""}
    </p>
  );
  return slot ? createPortal(line, slot) : line;
}
