// The notice for `/?error=...` after a failed sign-in. Only the three known values show anything,
// each with a fixed sentence: the query string is attacker-controlled and is never rendered.
import { useSearchParams } from "react-router-dom";

const messages = {
  auth_failed:
    "Sign-in did not complete: the identity provider turned the request down. Please try again.",
  no_code:
    "Sign-in was interrupted: the provider sent no authorisation code back. Please try again.",
  callback_error:
    "Something went wrong while finishing your sign-in. Please try again in a moment.",
} as const;

type KnownError = keyof typeof messages;

function isKnownError(value: string | null): value is KnownError {
  return value !== null && Object.hasOwn(messages, value);
}

/** A dismissible notice; dismissing drops `error` from the address so a reload stays clean. */
export function ErrorNotice() {
  const [params, setParams] = useSearchParams();
  const value = params.get("error");
  if (!isKnownError(value)) return null;
  const dismiss = () => {
    const next = new URLSearchParams(params);
    next.delete("error");
    setParams(next, { replace: true });
  };
  return (
    <div className="notice notice--error" role="alert" data-testid="error-notice">
      <p className="notice__text">
        <strong>Sign-in failed.</strong> {messages[value]}
      </p>
      <button type="button" className="notice__dismiss" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
