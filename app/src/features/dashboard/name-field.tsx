// The editable display name; the name-edit machine decides validation, saving and message timing.
import { useEffect, useRef } from "react";
import { maxNameChars } from "../../lib/wasm/core";
import type { SavedUser } from "../../lib/wasm/use-name-edit";
import { useNameEdit } from "../../lib/wasm/use-name-edit";

export function NameField({
  name,
  onSaved,
}: {
  name: string;
  onSaved?: (user: SavedUser) => void;
}) {
  const edit = useNameEdit(name, onSaved);
  const { mode, draft, notice } = edit.snapshot;
  const input = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);

  // Focus follows the mode: into the field when editing starts, back to Edit when it ends.
  useEffect(() => {
    if (mode === "editing" && !wasEditing.current) input.current?.focus();
    if (mode === "view" && wasEditing.current) editButton.current?.focus();
    wasEditing.current = mode !== "view";
  }, [mode]);

  return (
    <div className="name-field">
      {mode === "view" ? (
        <p className="name-field__view">
          <span className="name-field__label">Display name</span>{" "}
          <strong data-testid="display-name">{edit.snapshot.name || "Not set"}</strong>{" "}
          <button ref={editButton} type="button" className="button" onClick={edit.edit}>
            Edit
          </button>
        </p>
      ) : (
        <div className="name-field__edit">
          <label htmlFor="display-name-input" className="name-field__label">
            Display name
          </label>
          <input
            ref={input}
            id="display-name-input"
            className="name-field__input"
            value={draft}
            maxLength={maxNameChars()}
            disabled={mode === "saving"}
            aria-describedby="display-name-help"
            onChange={(event) => edit.input(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" || event.key === "Escape") event.preventDefault();
              edit.key(event.key);
            }}
          />
          <span id="display-name-help" className="visually-hidden">
            Enter saves, Escape cancels.
          </span>
          <button
            type="button"
            className="button button--primary"
            onClick={edit.save}
            disabled={mode === "saving"}
          >
            {mode === "saving" ? "Saving..." : "Save"}
          </button>
          <button
            type="button"
            className="button"
            onClick={edit.cancel}
            disabled={mode === "saving"}
          >
            Cancel
          </button>
        </div>
      )}
      {notice && (
        <p
          className={`name-field__notice name-field__notice--${notice.kind}`}
          role={notice.kind === "error" ? "alert" : "status"}
        >
          {notice.text}
        </p>
      )}
    </div>
  );
}

/**
 * The field's row while the stored name loads: the identity's name and a disabled Edit, laid out as
 * the field will be, so nothing below it moves when the stored name arrives.
 */
export function NameFieldPending({ name }: { name: string }) {
  return (
    <div className="name-field" aria-busy="true">
      <p className="name-field__view">
        <span className="name-field__label">Display name</span> <strong>{name || "Not set"}</strong>{" "}
        <button type="button" className="button" disabled>
          Edit
        </button>
      </p>
      <p role="status" className="visually-hidden">
        Loading your profile...
      </p>
    </div>
  );
}
