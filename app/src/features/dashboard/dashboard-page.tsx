// /home: the signed-in user's account: the display name editable (spec 2.5), the signed-in devices
// listed and signed out, the data downloaded or the account deleted. While the session is read the
// page is its frame: the same tree with every personal value a placeholder and no call made, which
// the build prerenders (docs/rendering.md) and the browser hydrates and then fills in, keeping its
// nodes; an anonymous visitor is sent to the landing page.

import { docsDefaultPath, paths } from "@common/routes";
import { useCallback } from "react";
import { Link, Navigate, useNavigate } from "react-router-dom";
import { Card } from "../../components/card";
import { usePageMeta } from "../../components/document-title";
import type { IdentityProfile } from "../../lib/identity";
import { useSession } from "../../lib/session/session-context";
import { providerLabel } from "../../lib/wasm/core";
import type { SavedUser } from "../../lib/wasm/use-name-edit";
import { AccountDataCard } from "./account-data-card";
import { NameField, NameFieldPending } from "./name-field";
import { formatWhen } from "./relative-time";
import { SessionsCard } from "./sessions-card";
import { type LoadedUser, useCurrentUser } from "./use-current-user";
import "./dashboard.css";

/** Which provider signed this user in: the identity user's OAuth map, else its first login id. */
export function loginProviderOf(user: IdentityProfile): string {
  const fromOAuth = Object.entries(user.OAuth ?? {}).find(([, used]) => used)?.[0];
  const raw = fromOAuth ?? user.loginIds?.[0];
  if (!raw) return "Unknown";
  return providerLabel(raw);
}

/** A value not loaded yet. */
const PENDING = "…";

/** The page's description (its head; the page is not indexed content, but a tab's or a share's). */
const DESCRIPTION =
  "Your mg-web account: your display name, the browsers and devices signed in, your data.";

export function DashboardPage() {
  usePageMeta("Dashboard", DESCRIPTION);
  const { state } = useSession();
  if (state.status === "anonymous") return <Navigate to={paths.landing} replace />;
  return <Dashboard user={state.status === "signed-in" ? state.user : undefined} />;
}

/** The account page of `user`; without one, its frame (the session is being read). */
function Dashboard({ user }: { user?: IdentityProfile }) {
  const session = useSession();
  const navigate = useNavigate();
  const signedIn = user !== undefined;
  const apiUser = useCurrentUser(signedIn);
  const stored: LoadedUser | undefined = apiUser.status === "loaded" ? apiUser.user : undefined;
  const email = user ? (user.email ?? user.loginIds?.[0] ?? "Not provided") : PENDING;
  // The test ids mark what is the user's, never a placeholder.
  const mark = (id: string) => (signedIn ? id : undefined);
  const { merge } = apiUser;
  // The save's answer is the stored user: 'Last updated' shows its time at once.
  const saved = useCallback(
    (answer: SavedUser) => merge({ name: answer.name, updated_at: answer.updated_at }),
    [merge],
  );

  const logout = async () => {
    await session.logout();
    navigate(paths.landing);
  };

  return (
    <main id="main" className="page dashboard" aria-busy={!signedIn}>
      <h1>Dashboard</h1>
      <p className="page__lead">
        Signed in as{" "}
        <strong data-testid={mark("user-email")} title={user && email}>
          {email}
        </strong>
      </p>
      {!signedIn && (
        <p role="status" className="visually-hidden">
          Loading your session...
        </p>
      )}

      <Card id="profile-title" title="Profile" className="dashboard__card">
        {apiUser.status === "loading" ? (
          <NameFieldPending name={user ? (user.name ?? "") : PENDING} />
        ) : (
          <NameField name={stored?.name ?? user?.name ?? ""} onSaved={saved} />
        )}
        <dl className="dashboard__facts">
          <div>
            <dt>E-mail</dt>
            <dd title={user && email}>{email}</dd>
          </div>
          <div>
            <dt>Authentication status</dt>
            <dd data-testid={mark("auth-status")}>{user ? "Authenticated" : PENDING}</dd>
          </div>
          <div>
            <dt>Login provider</dt>
            <dd data-testid={mark("login-provider")}>{user ? loginProviderOf(user) : PENDING}</dd>
          </div>
          <div>
            <dt>User ID</dt>
            <dd className="dashboard__mono" title={user?.userId}>
              {user ? (user.userId ?? "Unknown") : PENDING}
            </dd>
          </div>
        </dl>
      </Card>

      <Card id="api-title" title="API user data" className="dashboard__card">
        {apiUser.status === "loading" && (
          <p role="status" className="visually-hidden">
            Loading...
          </p>
        )}
        {apiUser.status === "failed" && (
          <p role="alert" className="dashboard__error">
            {apiUser.message}{" "}
            <button type="button" className="link-button" onClick={apiUser.reload}>
              Try again
            </button>
          </p>
        )}
        {/* While loading, the same list with placeholders: the card keeps its height when the
            values arrive. The test ids mark the values only. */}
        {(stored || apiUser.status === "loading") && (
          <dl className="dashboard__facts" aria-busy={!stored}>
            <div>
              <dt>Database ID</dt>
              <dd className="dashboard__mono" data-testid={stored && "db-id"}>
                {stored ? (stored.id ?? "Unknown") : PENDING}
              </dd>
            </div>
            <div>
              <dt>Created at</dt>
              <dd>{stored ? (formatWhen(stored.created_at) ?? "Unknown") : PENDING}</dd>
            </div>
            <div>
              <dt>Last updated</dt>
              <dd data-testid={stored && "updated-at"}>
                {stored ? (formatWhen(stored.updated_at) ?? "Never updated") : PENDING}
              </dd>
            </div>
            <div>
              <dt>Active sessions</dt>
              <dd data-testid={stored && "active-sessions"}>
                {stored ? (stored.activeSessions ?? 0) : PENDING}
              </dd>
            </div>
          </dl>
        )}
      </Card>

      <SessionsCard signedIn={signedIn} onChanged={apiUser.reload} />

      <AccountDataCard signedIn={signedIn} />

      <aside className="dashboard__note" aria-label="Sanctified mode">
        <p>
          This deployment runs in sanctified mode: sign-in goes through the identity provider, and
          only signed-in users can open this dashboard. Your session token is checked by the API on
          every call.
        </p>
      </aside>

      <div className="dashboard__actions">
        <Link to={docsDefaultPath} className="button">
          Docs
        </Link>
        <button type="button" className="button" onClick={() => void logout()}>
          Log out
        </button>
        <Link to={paths.landing} className="button button--primary">
          Back to Home
        </Link>
      </div>
    </main>
  );
}
