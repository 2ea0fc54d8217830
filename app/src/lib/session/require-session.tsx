// Guards protected routes: a loading screen while the session loads, anonymous visitors go to /.
import { paths } from "@common/routes";
import type { ReactNode } from "react";
import { Navigate } from "react-router-dom";
import { useSession } from "./session-context";

export function RequireSession({ children }: { children: ReactNode }) {
  const { state } = useSession();
  if (state.status === "loading") return <SessionLoading />;
  if (state.status === "anonymous") return <Navigate to={paths.landing} replace />;
  return <>{children}</>;
}

/** The full-page loading screen of protected routes. */
export function SessionLoading() {
  return (
    <main id="main" className="page session-loading" aria-busy="true">
      <p role="status" className="session-loading__text">
        <span className="spinner" aria-hidden="true" /> Loading your session...
      </p>
    </main>
  );
}
