import { createBrowserRouter, Navigate, Outlet } from "react-router-dom";
import { SanctifiedNav } from "../components/sanctified-nav";
import { SiteFooter } from "../components/site-footer";
import { SiteHeader } from "../components/site-header";
import { identityConfig } from "../config/env";
import { docsDefaultPath, paths } from "../config/paths";
import { LandingPage } from "../features/landing/landing-page";
import { NotFoundPage } from "../features/not-found/not-found-page";
import { StatusPage } from "../features/status/status-page";
import { TelekinesisPage } from "../features/telekinesis/telekinesis-page";
import { RequireSession } from "../lib/session/require-session";

// Sign-in routes exist only in sanctified mode (spec 2.1); elsewhere they fall through to the 404 page.
// Each is its own chunk: visitors who never sign in never download them.
const signInRoutes = identityConfig.sanctified
  ? [
      {
        path: paths.authCallback,
        lazy: async () => ({
          Component: (await import("../features/auth/callback-page")).CallbackPage,
        }),
      },
      {
        path: paths.dashboard,
        lazy: async () => {
          const { DashboardPage } = await import("../features/dashboard/dashboard-page");
          return {
            Component: () => (
              <RequireSession>
                <DashboardPage />
              </RequireSession>
            ),
          };
        },
      },
    ]
  : [];

function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {identityConfig.sanctified ? <SanctifiedNav /> : <SiteHeader />}
      <Outlet />
      <SiteFooter />
    </>
  );
}

export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      {
        path: paths.landing,
        element: <LandingPage />,
      },
      {
        path: paths.status,
        element: <StatusPage />,
      },
      { path: paths.docsRoot, element: <Navigate to={docsDefaultPath} replace /> },
      { path: paths.metagenesis, element: <Navigate to={docsDefaultPath} replace /> },
      // The docs area is its own chunk: landing visitors never download it.
      {
        path: paths.docsCli,
        lazy: async () => ({
          Component: (await import("../features/docs/docs-page")).DocsCliRoute,
        }),
      },
      {
        path: paths.docsTab,
        lazy: async () => ({
          Component: (await import("../features/docs/docs-page")).DocsTabRoute,
        }),
      },
      {
        path: paths.telekinesis,
        element: <TelekinesisPage />,
      },
      {
        path: paths.docs,
        lazy: async () => ({
          Component: (await import("../features/docs/docs-page")).DocsOverviewRoute,
        }),
      },
      ...signInRoutes,
      { path: "*", element: <NotFoundPage /> },
    ],
  },
]);
