// Says why this browser was signed out (from another session, or the account deleted), at the foot
// of whatever page it lands on, until dismissed. Shown only then (so no page carries an empty
// region), as a status people hear; focus is left where it was.
import "./signed-out-notice.css";

export function SignedOutNotice({
  message,
  onDismiss,
}: {
  message: string;
  onDismiss: () => void;
}) {
  return (
    <div className="signed-out-notice" role="status" data-testid="signed-out-notice">
      <p className="signed-out-notice__text">{message}</p>
      <button type="button" className="notice__dismiss" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
