// "Correct a posted update" in the operator view: every update of the incidents and windows the page
// lists, newest first, as posted (Markdown), each with Edit (its text in a form, saved with PATCH)
// and Delete (asked again before DELETE). An update the server keeps (a notice's first, the one that
// ended it, the clock's) offers no Delete and says why in the server's words. One outcome line for
// the whole list: focus moves to it after every save or delete (the list is asked again and the
// form or button that was used is gone), and to the text or the question when Edit or Delete opens.
import type { OperatorView as OperatorInfo, PostedNotice, PostedUpdate } from "@common/http-types";
import { type FormEvent, type RefObject, useEffect, useRef, useState } from "react";
import { Outcome, usePost } from "./operator-outcome";

type Run = ReturnType<typeof usePost>["run"];

export function CorrectUpdates({ info, onPosted }: { info: OperatorInfo; onPosted: () => void }) {
  const { message, busy, run, outcome } = usePost(onPosted);
  return (
    <div className="operator__form">
      {info.posted.length === 0 && <p className="card__hint">Nothing is posted.</p>}
      {info.posted.map((notice) => (
        <section key={notice.id} className="operator__posted" aria-label={notice.title}>
          <h4 className="operator__posted-title">
            {notice.kind === "maintenance" ? "Maintenance: " : "Incident: "}
            {notice.title}
          </h4>
          <ol className="operator__posted-list">
            {notice.updates.map((update) => (
              <Posted
                key={update.seq}
                notice={notice}
                update={update}
                info={info}
                busy={busy}
                run={run}
              />
            ))}
          </ol>
        </section>
      ))}
      <Outcome message={message} outcome={outcome} />
    </div>
  );
}

function Posted({
  notice,
  update,
  info,
  busy,
  run,
}: {
  notice: PostedNotice;
  update: PostedUpdate;
  info: OperatorInfo;
  busy: boolean;
  run: Run;
}) {
  const [mode, setMode] = useState<"shown" | "editing" | "deleting">("shown");
  const editButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const text = useRef<HTMLTextAreaElement>(null);
  const question = useRef<HTMLParagraphElement>(null);
  const back = useRef<"edit" | "delete" | null>(null);
  useEffect(() => {
    if (mode === "editing") text.current?.focus();
    if (mode === "deleting") question.current?.focus();
    if (mode === "shown" && back.current) {
      (back.current === "edit" ? editButton : deleteButton).current?.focus();
      back.current = null;
    }
  }, [mode]);
  const path = `/api/status/${notice.kind === "maintenance" ? "maintenances" : "incidents"}/${
    notice.id
  }/updates/${update.seq}`;
  const name = `update ${update.seq} of ${notice.title}`;
  const cancel = (from: "edit" | "delete") => {
    back.current = from;
    setMode("shown");
  };
  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = text.current?.value ?? "";
    if (await run(path, { body }, `Saved: ${name}.`, "PATCH")) setMode("shown");
  };
  const remove = async () => {
    if (await run(path, undefined, `Deleted: ${name}.`, "DELETE")) setMode("shown");
  };
  const label = `Update ${update.seq}`;
  const statuses = notice.kind === "maintenance" ? info.window_statuses : info.incident_statuses;
  const statusWords = statuses.find(([value]) => value === update.status)?.[1] ?? update.status;
  return (
    <li className="operator__posted-update">
      <p className="operator__posted-head">
        {label} · {statusWords} · <time dateTime={update.created_at}>{update.created_at}</time>
      </p>
      {mode === "editing" ? (
        <form className="operator__form" onSubmit={save} aria-label={`Edit ${name}`}>
          <label htmlFor={`edit-${notice.id}-${update.seq}`}>{`Text of ${name} (Markdown)`}</label>
          <textarea
            id={`edit-${notice.id}-${update.seq}`}
            ref={text}
            name="body"
            required
            rows={3}
            maxLength={info.limits.body_chars}
            defaultValue={update.body}
          />
          <div className="operator__row">
            <button type="submit" className="button button--primary" disabled={busy}>
              Save
            </button>
            <button type="button" className="button" onClick={() => cancel("edit")}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <p className="operator__posted-text">{update.body}</p>
      )}
      {mode === "deleting" && (
        <div className="operator__confirm">
          <p ref={question} tabIndex={-1}>
            {`Delete ${name}? It leaves the page, the feed and the Statuspage JSON.`}
          </p>
          <div className="operator__row">
            <button type="button" className="button" disabled={busy} onClick={remove}>
              Delete it
            </button>
            <button type="button" className="button" onClick={() => cancel("delete")}>
              Keep it
            </button>
          </div>
        </div>
      )}
      {mode === "shown" && (
        <div className="operator__row">
          <Opener verb="Edit" name={name} button={editButton} onOpen={() => setMode("editing")} />
          {update.kept === null ? (
            <Opener
              verb="Delete"
              name={name}
              button={deleteButton}
              onOpen={() => setMode("deleting")}
            />
          ) : (
            <span className="card__hint">{update.kept}</span>
          )}
        </div>
      )}
    </li>
  );
}

/** Edit or Delete under a shown update: opens the form or the question, and `button` is where the
 * focus goes back when that closes. */
function Opener({
  verb,
  name,
  button,
  onOpen,
}: {
  verb: "Edit" | "Delete";
  name: string;
  button: RefObject<HTMLButtonElement | null>;
  onOpen: () => void;
}) {
  return (
    <button
      type="button"
      className="button"
      ref={button}
      aria-label={`${verb} ${name}`}
      onClick={onOpen}
    >
      {verb}
    </button>
  );
}
