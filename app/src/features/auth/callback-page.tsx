// /auth/callback: completes the OAuth sign-in; the callback machine decides every message and redirect.

import { paths } from "@common/routes";
import { useCallback, useEffect, useMemo, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { useDocumentTitle } from "../../components/document-title";
import type { Identity } from "../../lib/identity";
import { useSession } from "../../lib/session/session-context";
import { useAuthCallback } from "../../lib/wasm/use-auth-callback";
import { DiagnosticModal } from "./diagnostic-modal";
import "./auth.css";

/** The emulator (and some providers) report failures as `?err=`; the machine reads `error`. */
export function normaliseCallbackSearch(search: string): string {
  const query = new URLSearchParams(search);
  const err = query.get("err");
  if (err && !query.get("error") && !query.get("error_description")) query.set("error", err);
  const text = query.toString();
  return text ? `?${text}` : "";
}

export function CallbackPage() {
  useDocumentTitle("Signing in");
  const { ensureIdentity, setCompleting } = useSession();
  const navigate = useNavigate();
  const [identity, setIdentity] = useState<Identity | null>(null);

  // From the first paint until the sign-in completes or fails, the nav offers no Log in.
  useEffect(() => {
    setCompleting?.(true);
    return () => setCompleting?.(false);
  }, [setCompleting]);

  useEffect(() => {
    let live = true;
    void ensureIdentity().then((found) => {
      if (!live) return;
      // Spec 8: without the identity SDK there is nothing to complete; people go to /.
      if (found) setIdentity(found);
      else navigate(paths.landing, { replace: true });
    });
    return () => {
      live = false;
    };
  }, [ensureIdentity, navigate]);

  return identity ? <Callback identity={identity} /> : <Completing />;
}

function Completing() {
  return (
    <main id="main" className="page callback">
      <h1 className="visually-hidden">Signing in</h1>
      <p role="status" className="callback__status">
        <span className="spinner spinner--large" aria-hidden="true" />
        Completing authentication...
      </p>
    </main>
  );
}

function Callback({ identity }: { identity: Identity }) {
  const location = useLocation();
  const navigate = useNavigate();
  const { reload, setCompleting } = useSession();
  const [diagnosing, setDiagnosing] = useState(false);
  const search = useMemo(() => normaliseCallbackSearch(location.search), [location.search]);

  // Signed in: the session must know before /home's guard looks.
  const go = useCallback(
    (to: string, options?: { replace?: boolean }) => {
      if (to === paths.dashboard) void reload().then(() => navigate(to, options));
      else navigate(to, options);
    },
    [navigate, reload],
  );

  const state = useAuthCallback({
    search,
    exchange: identity.exchange,
    navigate: go,
  });

  const failed = state.phase === "failed";
  useEffect(() => setCompleting?.(!failed), [failed, setCompleting]);

  if (!failed) return <Completing />;
  return (
    <main id="main" className="page callback">
      <section className="auth-issue" role="alert" aria-labelledby="auth-issue-title">
        <h1 id="auth-issue-title">Authentication Issue</h1>
        <p className="auth-issue__message">{state.message}</p>
        {state.redirectTo && <p>Returning to the home page in 3 seconds...</p>}
        {state.showHelp && (
          <div className="auth-issue__help">
            <p>Sign-in did not complete. Things worth checking:</p>
            <ul>
              <li>
                The provider is enabled under Social Login in the identity provider's console.
              </li>
              <li>
                The OAuth app (Discord, Google, ...) lists the identity provider's callback address
                as a redirect.
              </li>
              <li>This site's domain is approved as a redirect in the identity project.</li>
            </ul>
            <p>Run Diagnostic checks each of these from this browser.</p>
          </div>
        )}
        <div className="modal__actions">
          <button
            type="button"
            className="button button--primary"
            onClick={() => setDiagnosing(true)}
          >
            Run Diagnostic
          </button>
          <Link to={paths.landing} className="button">
            Back to Home
          </Link>
        </div>
      </section>
      {diagnosing && <DiagnosticModal onClose={() => setDiagnosing(false)} />}
    </main>
  );
}
