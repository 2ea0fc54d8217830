import { docsRouteAt, type PageName, pageAt, pageNames, pages, paths } from "@common/routes";
import { type ComponentType, lazy, Suspense } from "react";
import { Navigate, Outlet, Route, Routes } from "react-router-dom";
import { type AuthDialogs, SanctifiedNav } from "../components/sanctified-nav";
import { SiteFooter } from "../components/site-footer";
import { SiteHeader } from "../components/site-header";
import { identityConfig } from "../config/env";
// Not lazy: a short page, so while a chunk loaded the footer would rise into view (a layout shift).
import { NotFoundPage } from "../features/not-found/not-found-page";
import { preloadCoreWasm } from "../lib/wasm/load-core";

// Declarative routes (<Routes>) rather than a data router: the app loads no route data, and the data
// router's code (about 15 KB gzip) would be paid on every first visit for nothing.
//
// Every page is its own chunk, loaded when its route first renders (`lazy`). The wasm core is imported
// only by the pages that run a machine at once (landing, status, Telekinesis), so the docs area never
// downloads it on a first visit, and the others download it beside their own chunk; the page renders
// once it is instantiated (the chunk's module evaluation waits for it).
//
// A page is `lazy` until its chunk has arrived once, then rendered directly: main.tsx loads the chunk
// of a prerendered page (and its data) before hydrating, so the first render holds the page at once,
// like the HTML, instead of suspending (see `preloadRoute`).
type Page = ComponentType & { preload: () => Promise<unknown> };

function page(load: () => Promise<ComponentType>): Page {
  let loaded: ComponentType | undefined;
  const fetch = () =>
    load().then((component) => {
      loaded = component;
      return component;
    });
  const Lazy = lazy(() => fetch().then((component) => ({ default: component })));
  function LazyPage() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  }
  return Object.assign(LazyPage, { preload: fetch });
}

const LandingPage = page(() =>
  import("../features/landing/landing-page").then((m) => m.LandingPage),
);
const StatusPage = page(() => import("../features/status/status-page").then((m) => m.StatusPage));
const TelekinesisPage = page(() =>
  import("../features/telekinesis/telekinesis-page").then((m) => m.TelekinesisPage),
);
// The graphics bench: its measurements (both graphics builds, gl-matrix) load from inside this chunk.
const BenchPage = page(() => import("../features/bench/bench-page").then((m) => m.BenchPage));
const docsPage = () => import("../features/docs/page/docs-page");
const DocsTabRoute = page(() => docsPage().then((m) => m.DocsTabRoute));
const DocsCliRoute = page(() => docsPage().then((m) => m.DocsCliRoute));
const DocsOverviewRoute = page(() => docsPage().then((m) => m.DocsOverviewRoute));
// Sign-in pages: visitors who never sign in never download them.
const CallbackPage = lazy(() =>
  import("../features/auth/callback-page").then((m) => ({ default: m.CallbackPage })),
);
// The account page guards itself: its frame while the session is read (prerendered, docs/rendering.md),
// the landing page for an anonymous visitor.
const DashboardPage = page(() =>
  import("../features/dashboard/dashboard-page").then((m) => m.DashboardPage),
);

// The sign-in dialogs load when first opened, keeping them out of the first paint.
const authDialogs: AuthDialogs = {
  LoginModal: lazy(async () => ({
    default: (await import("../features/auth/login-modal")).LoginModal,
  })),
  SetupGuideModal: lazy(async () => ({
    default: (await import("../features/auth/setup-guide-modal")).SetupGuideModal,
  })),
};

/** Each page's component, by its name in the catalogue; null for a redirect (`pages.*.redirect`). */
const pageComponents: Record<PageName, (ComponentType & { preload?: Page["preload"] }) | null> = {
  landing: LandingPage,
  status: StatusPage,
  docsRoot: null,
  metagenesis: null,
  docsCli: DocsCliRoute,
  docsTab: DocsTabRoute,
  telekinesis: TelekinesisPage,
  bench: BenchPage,
  docs: DocsOverviewRoute,
  authCallback: CallbackPage,
  dashboard: DashboardPage,
};

/**
 * Called once before the first render with the address being opened: on a page that runs machines
 * (`pages.*.machines`), the wasm starts downloading beside the page's chunk rather than after it.
 */
export function preloadFor(pathname: string): void {
  if (pageAt(pathname)?.facts.machines) preloadCoreWasm();
}

/**
 * Loads the chunk and the data of the page at `pathname` (a prerendered page), so that hydrating
 * its server-rendered HTML renders it at once; resolves when there is nothing to load.
 */
export async function preloadRoute(pathname: string): Promise<void> {
  const page = pageAt(pathname);
  const preload = page && pageComponents[page.name]?.preload;
  if (!preload) return;
  const docs = docsRouteAt(pathname);
  if (!docs) {
    await preload();
    return;
  }
  const [{ preloadDocsRoute }] = await Promise.all([docsPage(), preload()]);
  await preloadDocsRoute(docs.tab, docs.subtab);
}

/** Holds the page's place while its chunk loads: the footer stays below the fold (no layout shift). */
function PagePending() {
  return <div className="page-pending" />;
}

function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {identityConfig.sanctified ? <SanctifiedNav dialogs={authDialogs} /> : <SiteHeader />}
      <Suspense fallback={<PagePending />}>
        <Outlet />
      </Suspense>
      <SiteFooter />
    </>
  );
}

/** A page's route element: the page, or for a redirect the navigation to its target. */
function elementOf(name: PageName) {
  const to = pages[name].redirect;
  if (to) return <Navigate to={to} replace />;
  const Page = pageComponents[name];
  return Page && <Page />;
}

/** The route table of spec 2.1 (the catalogue in common/routes.ts). */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        {/* Sign-in routes exist only in sanctified mode (spec 2.1); elsewhere they are 404s. */}
        {pageNames
          .filter((name) => identityConfig.sanctified || !pages[name].signedIn)
          .map((name) => (
            <Route key={name} path={paths[name]} element={elementOf(name)} />
          ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
