// The account's signed-in browsers and devices, this one first: each with its label, when it signed
// in (to the second, which tells two sign-ins of one browser and system apart) and when it was last
// active, "This device" on this one, and "Sign out" on the others; signing out all others asks first
// (docs/api.md "Account"). The server keeps no address or location of a session, so none is shown.

import type { AccountSession } from "@common/http-types";
import { useEffect, useRef, useState } from "react";
import { Card } from "../../components/card";
import { ConfirmDialog } from "./confirm-dialog";
import { formatWhen, RelativeTime } from "./relative-time";
import { type SignOutResult, useSessions } from "./use-sessions";

/** How often the relative times are worded again. */
const TICK_MS = 60_000;

/** The list once `signedIn`; before, the card with its loading line (the page's frame). */
export function SessionsCard({
  signedIn,
  onChanged,
}: {
  signedIn: boolean;
  onChanged: () => void;
}) {
  const { state, reload, signOut, signOutOthers } = useSessions(signedIn);
  const [now, setNow] = useState(() => Date.now());
  const [result, setResult] = useState<SignOutResult>();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const status = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), TICK_MS);
    return () => window.clearInterval(timer);
  }, []);

  // The pressed button (or the dialog) may be gone: focus goes to what happened. (An effect, so
  // it runs after the closed dialog has handed focus back to its opener.)
  useEffect(() => {
    if (result) status.current?.focus();
  }, [result]);

  const run = async (action: () => Promise<SignOutResult>) => {
    setBusy(true);
    const outcome = await action();
    setBusy(false);
    setConfirming(false);
    setResult(outcome);
    setNow(Date.now());
    if (outcome.changed) onChanged();
  };

  const listed = state.status === "loaded" ? state.sessions : [];
  const sessions = [...listed.filter((s) => s.current), ...listed.filter((s) => !s.current)];
  const others = sessions.filter((session) => !session.current);

  return (
    <Card id="sessions-title" title="Signed-in devices" className="dashboard__card">
      <p className="card__hint">
        Every browser and device signed in to your mg-web account. Sign out any you do not
        recognise: mg-web refuses its sign-in at once. One marked "Can sign back in on its own" is
        only refused the sign-in it holds now, and can renew it with your identity provider for up
        to 30 days; to end that, also change your password with that provider.
      </p>
      {state.status === "loading" && <SessionsPending />}
      {state.status === "failed" && (
        <p role="alert" className="dashboard__error">
          {state.message}{" "}
          <button type="button" className="link-button" onClick={reload}>
            Try again
          </button>
        </p>
      )}
      {state.status === "loaded" && (
        <ul className="sessions" aria-labelledby="sessions-title" data-testid="sessions">
          {sessions.map((session) => (
            <SessionItem
              key={session.id}
              session={session}
              now={now}
              busy={busy}
              onSignOut={() => void run(() => signOut(session))}
            />
          ))}
        </ul>
      )}
      <p
        ref={status}
        tabIndex={-1}
        role="status"
        className={`sessions__result${result && !result.ok ? " dashboard__error" : ""}`}
      >
        {result?.message}
      </p>
      {others.length > 0 && (
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => setConfirming(true)}
        >
          Sign out of all other sessions
        </button>
      )}
      {confirming && (
        <ConfirmDialog
          title="Sign out of all other sessions?"
          confirm="Sign out other sessions"
          busyLabel="Signing out..."
          busy={busy}
          onConfirm={() => void run(signOutOthers)}
          onClose={() => setConfirming(false)}
        >
          <OthersSummary others={others} />
        </ConfirmDialog>
      )}
    </Card>
  );
}

function SessionItem({
  session,
  now,
  busy,
  onSignOut,
}: {
  session: AccountSession;
  now: number;
  busy: boolean;
  onSignOut: () => void;
}) {
  return (
    <li className="session" data-testid="session" data-current={session.current}>
      <div className="session__head">
        <span className="session__label">{session.label}</span>
        {session.current && <span className="session__this">This device</span>}
        {!session.current && !session.boundToSignIn && (
          <span className="session__renews">Can sign back in on its own</span>
        )}
      </div>
      <dl className="session__times">
        <div>
          <dt>Signed in</dt>
          <dd>
            <time dateTime={session.createdAt}>{signedInAt(session)}</time>
          </dd>
        </div>
        <div>
          <dt>Last active</dt>
          <dd>
            <RelativeTime iso={session.lastActiveAt} now={now} />
          </dd>
        </div>
      </dl>
      {!session.current && (
        <button
          type="button"
          className="button session__sign-out"
          aria-label={`Sign out ${session.label}, signed in ${signedInAt(session)}`}
          disabled={busy}
          onClick={onSignOut}
        >
          Sign out
        </button>
      )}
    </li>
  );
}

/**
 * The list while it loads: this device's row with placeholders, laid out as it will be (every
 * signed-in page has this session), so nothing below moves when the list arrives.
 */
function SessionsPending() {
  return (
    <>
      <p role="status" className="visually-hidden">
        Loading your sessions...
      </p>
      <ul className="sessions" aria-hidden="true">
        <li className="session" data-current="true">
          <div className="session__head">
            <span className="session__label">…</span>
            <span className="session__this">This device</span>
          </div>
          <dl className="session__times">
            <div>
              <dt>Signed in</dt>
              <dd>…</dd>
            </div>
            <div>
              <dt>Last active</dt>
              <dd>…</dd>
            </div>
          </dl>
        </li>
      </ul>
    </>
  );
}

const signedInAt = (session: AccountSession) => formatWhen(session.createdAt) ?? session.createdAt;

/** What "sign out all others" will end, said in its confirmation. */
function OthersSummary({ others }: { others: AccountSession[] }) {
  const renewing = others.filter((session) => !session.boundToSignIn).length;
  return (
    <>
      <p>
        {others.length === 1
          ? "This signs out 1 other session:"
          : `This signs out ${others.length} other sessions:`}
      </p>
      <ul>
        {others.map((session) => (
          <li key={session.id}>
            {session.label}, signed in {signedInAt(session)}
          </li>
        ))}
      </ul>
      <p>
        This device stays signed in.
        {renewing > 0 &&
          ` ${renewing === 1 ? "1 of them" : `${renewing} of them`} can sign back in on its own with your identity provider for up to 30 days: to end that, also change your password there.`}
      </p>
    </>
  );
}
