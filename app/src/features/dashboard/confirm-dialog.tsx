// The account page's confirmation before what cannot be undone (deleting the account, signing out
// every other session): the browser's modal dialog, so focus moves in (to Cancel, the first
// button) and stays in, Escape and Cancel close it, and focus returns to what opened it. While the
// action runs, both buttons wait; a failure is said inside it.

import { type ReactNode, useEffect, useId, useRef } from "react";

export function ConfirmDialog({
  title,
  children,
  confirm,
  busyLabel,
  busy,
  failure,
  onConfirm,
  onClose,
}: {
  title: string;
  /** What the action does, in full. */
  children: ReactNode;
  /** The confirming button's words. */
  confirm: string;
  /** Its words while the action runs. */
  busyLabel: string;
  busy: boolean;
  /** Why the action failed, shown as an alert. */
  failure?: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const box = dialog.current;
    // (A document without the dialog API, such as the unit tests' jsdom, shows it in place.)
    if (box && !box.open) {
      if (typeof box.showModal === "function") box.showModal();
      else box.setAttribute("open", "");
    }
    return () => {
      if (typeof box?.close === "function") box.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <h2 id={titleId} className="confirm-dialog__title">
        {title}
      </h2>
      <div>
        {children}
        {failure && (
          <p role="alert" className="dashboard__error">
            {failure}
          </p>
        )}
        <div className="dashboard__actions">
          <button type="button" className="button" disabled={busy} onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={busy}
            onClick={onConfirm}
          >
            {busy ? busyLabel : confirm}
          </button>
        </div>
      </div>
    </dialog>
  );
}
