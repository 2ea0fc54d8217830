// Says why this browser was signed out (from another session, or the account deleted), or that its
// sign-in could not be restored, at the foot of whatever page it lands on, until dismissed. Shown
// only then (so no page carries an empty region), as a status people hear; focus moves to it, as
// the account page's own status lines take it, so keyboard and screen-reader users land on it.
import { useEffect, useRef } from "react";
import "./signed-out-notice.css";

export function SignedOutNotice({
  message,
  onDismiss,
}: {
  message: string;
  onDismiss: () => void;
}) {
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) notice.current?.focus();
  }, [message]);
  return (
    <div
      ref={notice}
      tabIndex={-1}
      className="signed-out-notice"
      role="status"
      data-testid="signed-out-notice"
    >
      <p className="signed-out-notice__text">{message}</p>
      <button type="button" className="notice__dismiss" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
