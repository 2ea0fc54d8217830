// The app's page catalogue (spec 2.1), in one place for the app, its build and its server: every
// route, what each page is (whether it runs machines at once, whether it is sent cross-origin
// isolated, whether it exists only with sign-in, where a redirect sends people, its chunk's source).
// Everything else derives from it: the router, the prerender, the footer, the measurements, and the
// server through dist/routes.json (vite/route-manifest.ts), which it reads at start to answer 404 for
// every other path. route-literals.test.ts fails on a route path spelled anywhere else in the app.
// Neutral ground: imports nothing from src/ or vite/.
import { matchPath } from "react-router-dom";

export const paths = {
  landing: "/",
  status: "/apotheosis",
  docsRoot: "/mg",
  metagenesis: "/metagenesis",
  docsCli: "/mg/cli/:subtab",
  docsTab: "/mg/:tab",
  telekinesis: "/telekinesis",
  bench: "/bench",
  docs: "/docs",
  authCallback: "/auth/callback",
  dashboard: "/home",
} as const;

export type PageName = keyof typeof paths;

/** A route pattern with its `:name` segments filled in: `pathTo(paths.docsCli, { subtab: "dmt" })`. */
export function pathTo(pattern: string, params: Readonly<Record<string, string>>): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => params[name] ?? "");
}

/** The CLI sub-row of the docs (spec 2.7): `/mg/cli/{subtab}` shows the page `slug`. */
export const cliSubtabs = [
  { subtab: "main", slug: "cli", label: "CLI Overview" },
  { subtab: "dmt", slug: "dmt", label: "DMT Commands" },
  { subtab: "lsd", slug: "lsd", label: "LSD Commands" },
] as const;

/** The canonical route of a docs page: CLI pages live under /mg/cli/, every other page at /mg/<slug>. */
export function docsPath(slug: string): string {
  const cli = cliSubtabs.find((entry) => entry.slug === slug);
  return cli ? pathTo(paths.docsCli, { subtab: cli.subtab }) : pathTo(paths.docsTab, { tab: slug });
}

/** The docs page `/docs` shows, and where `/metagenesis` and `/mg` send people. */
const DOCS_HOME = "overview";

/** Where `/metagenesis` and `/mg` send people (history is replaced). */
export const docsDefaultPath = docsPath(DOCS_HOME);

/** What a page is, beyond its path. */
export interface PageFacts {
  /** Its chunk imports the wasm core at once, so the core starts downloading beside it. */
  machines?: true;
  /**
   * Sent cross-origin isolated (`Cross-Origin-Opener-Policy`, `Cross-Origin-Embedder-Policy`): the
   * graphics bench, whose timings need the fine `performance.now()` only such a page gets. Reached by
   * a plain link, never a client-side navigation: only a document the server sends is isolated.
   */
  isolated?: true;
  /** Exists only in sanctified mode (spec 2.1: sign-in routes). */
  signedIn?: true;
  /**
   * A sign-in route prerendered as its frame (header, headings, the cards' placeholders at their
   * final sizes), the same for everyone and with nothing personal in it: the page as it renders
   * while the session is read, painted on arrival instead of after the scripts.
   */
  frame?: true;
  /** Sends people there (history replaced); nothing is rendered or prerendered at this path. */
  redirect?: string;
}

export const pages: Readonly<Record<PageName, PageFacts>> = {
  landing: { machines: true },
  status: { machines: true },
  docsRoot: { redirect: docsDefaultPath },
  metagenesis: { redirect: docsDefaultPath },
  docsCli: {},
  docsTab: {},
  telekinesis: { machines: true },
  bench: { isolated: true },
  docs: {},
  authCallback: { signedIn: true },
  dashboard: { signedIn: true, frame: true },
};

const DOCS_MODULE = "src/features/docs/page/docs-page.tsx";

/**
 * The source file (from app/) of each page's own chunk, which the prerender links the scripts and
 * styles of; none: the app's first chunk has the page. Apart from `pages` so that the browser's
 * bundle, which never reads it, leaves it out.
 */
export const pageModules: Readonly<Record<PageName, string | undefined>> = {
  landing: "src/features/landing/landing-page.tsx",
  status: "src/features/status/status-page.tsx",
  docsRoot: undefined,
  metagenesis: undefined,
  docsCli: DOCS_MODULE,
  docsTab: DOCS_MODULE,
  telekinesis: "src/features/telekinesis/telekinesis-page.tsx",
  bench: "src/features/bench/bench-page.tsx",
  docs: DOCS_MODULE,
  authCallback: undefined,
  dashboard: "src/features/dashboard/dashboard-page.tsx",
};

/** Every page's name, in the table's order. */
export const pageNames = Object.keys(paths) as PageName[];

/**
 * The page the route `path` names, with the route's parameters; undefined for a path of no page.
 * Matched by the router's own function, so this reading of a path is the router's (a trailing slash
 * allowed, letters in any case).
 */
export function pageAt(
  path: string,
): { name: PageName; facts: PageFacts; params: Record<string, string | undefined> } | undefined {
  for (const name of pageNames) {
    const match = matchPath(paths[name], path);
    if (match) return { name, facts: pages[name], params: match.params };
  }
  return undefined;
}

/**
 * The docs tab (and CLI subtab) the route `path` shows, as the docs pages take them: `/mg/cli/dmt`
 * is `cli`/`dmt`, `/mg/flow` is `flow`, `/docs` the overview; null for a path outside the docs.
 */
export function docsRouteAt(path: string): { tab: string; subtab?: string } | null {
  const page = pageAt(path);
  if (page?.name === "docsCli") return { tab: "cli", subtab: page.params.subtab };
  if (page?.name === "docsTab") return { tab: page.params.tab ?? "" };
  if (page?.name === "docs") return { tab: DOCS_HOME };
  return null;
}

/** Each redirecting path and where it sends people. */
export function redirects(): Record<string, string> {
  return Object.fromEntries(
    pageNames.flatMap((name) => {
      const to = pages[name].redirect;
      return to ? [[paths[name], to]] : [];
    }),
  );
}

/** The source file of the chunk that renders `path` (undefined: the app's first chunk has it). */
export function pageModule(path: string): string | undefined {
  const page = pageAt(path);
  return page && pageModules[page.name];
}

/**
 * One path per kind of page, what a measurement visits by default (scripts/first-visit.mjs): each
 * page that runs machines, a docs page, and a CLI page (which also loads the command builder).
 */
export function samplePaths(): string[] {
  return [paths.landing, paths.status, paths.telekinesis, docsDefaultPath, docsPath("dmt")];
}

/** What dist/routes.json holds: every concrete path the app answers. */
export type RouteManifest = {
  /** Answered in every mode. */
  public: string[];
  /** Answered only in sanctified mode (spec 2.1: sign-in routes). */
  signedIn: string[];
  /** Sent cross-origin isolated (`PageFacts.isolated`). */
  isolated: string[];
};

/** The manifest for a build whose docs pages have these slugs (`/mg/:tab` takes any of them). */
export function routeManifest(docSlugs: readonly string[]): RouteManifest {
  const fixed = pageNames.filter((name) => !paths[name].includes(":"));
  const concrete = [
    ...fixed.filter((name) => !pages[name].signedIn).map((name) => paths[name]),
    ...docSlugs.map((tab) => pathTo(paths.docsTab, { tab })),
    ...cliSubtabs.map(({ subtab }) => pathTo(paths.docsCli, { subtab })),
  ];
  return {
    public: concrete,
    signedIn: fixed.filter((name) => pages[name].signedIn).map((name) => paths[name]),
    isolated: concrete.filter((path) => pageAt(path)?.facts.isolated),
  };
}
