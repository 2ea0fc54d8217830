import { createBrowserRouter, Navigate, Outlet } from "react-router-dom";
import { SiteFooter } from "../components/site-footer";
import { SiteHeader } from "../components/site-header";
import { docsDefaultPath, paths } from "../config/paths";
import { PlaceholderPage } from "../features/placeholder/placeholder-page";

function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader />
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
        element: <PlaceholderPage title="mg" note="Deploy into your own cloud account." />,
      },
      {
        path: paths.status,
        element: <PlaceholderPage title="Apotheosis status" note="Health of the deployed stack." />,
      },
      { path: paths.docsRoot, element: <Navigate to={docsDefaultPath} replace /> },
      { path: paths.metagenesis, element: <Navigate to={docsDefaultPath} replace /> },
      {
        path: paths.docsCli,
        element: <PlaceholderPage title="CLI docs" note="The mg command-line reference." />,
      },
      {
        path: paths.docsTab,
        element: <PlaceholderPage title="Docs" note="Documentation of the mg tools." />,
      },
      {
        path: paths.telekinesis,
        element: <PlaceholderPage title="Telekinesis" note="The event-driven task queue." />,
      },
      {
        path: paths.docs,
        element: <PlaceholderPage title="Docs" note="Documentation for this deployment." />,
      },
      {
        path: paths.authCallback,
        element: <PlaceholderPage title="Signing in" note="Completing authentication..." />,
      },
      {
        path: paths.dashboard,
        element: <PlaceholderPage title="Dashboard" note="Your account." />,
      },
    ],
  },
]);
