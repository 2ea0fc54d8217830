// The app's page catalogue (spec 2.1), in one place for the app, its build and its server: every
// route, what each page is (its chunk's source file, whether it runs machines at once, whether it is
// sent cross-origin isolated, whether it exists only with sign-in, where a redirect sends people).
// Everything else derives from it: the router, the prerender, the footer, the measurements, and the
// server through dist/routes.json (vite/route-manifest.ts), which it reads at start to answer 404 for
// every other path. route-literals.test.ts fails on a route path spelled anywhere else in the app.
// Neutral ground: imports nothing from src/ or vite/.

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
  return pattern.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`pathTo: ${pattern} needs :${name}`);
    return value;
  });
}

/** The parameters of `path` when it matches `pattern` (a `:name` segment is one segment), else null. */
export function matchRoute(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/");
  const have = path.split("/");
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of want.entries()) {
    const value = have[index] ?? "";
    if (segment.startsWith(":")) {
      if (value === "") return null;
      params[segment.slice(1)] = decoded(value);
    } else if (segment !== value) {
      return null;
    }
  }
  return params;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape names no page the app has; keep it as it came.
    return segment;
  }
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
  /** The source file of the page's own chunk, from app/ (the prerender links its scripts and styles). */
  module?: string;
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
  /** Sends people there (history replaced); nothing is rendered or prerendered at this path. */
  redirect?: string;
}

const DOCS_MODULE = "src/features/docs/page/docs-page.tsx";

export const pages: Readonly<Record<PageName, PageFacts>> = {
  landing: { module: "src/features/landing/landing-page.tsx", machines: true },
  status: { module: "src/features/status/status-page.tsx", machines: true },
  docsRoot: { redirect: docsDefaultPath },
  metagenesis: { redirect: docsDefaultPath },
  docsCli: { module: DOCS_MODULE },
  docsTab: { module: DOCS_MODULE },
  telekinesis: { module: "src/features/telekinesis/telekinesis-page.tsx", machines: true },
  bench: { module: "src/features/bench/bench-page.tsx", isolated: true },
  docs: { module: DOCS_MODULE },
  authCallback: { signedIn: true },
  dashboard: { signedIn: true },
};

/** Every page's name, in the table's order. */
export const pageNames = Object.keys(paths) as PageName[];

/** The page the route `path` names, with the route's parameters; undefined for a path of no page. */
export function pageAt(
  path: string,
): { name: PageName; facts: PageFacts; params: Record<string, string> } | undefined {
  for (const name of pageNames) {
    const params = matchRoute(paths[name], path);
    if (params) return { name, facts: pages[name], params };
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
export const redirects: Readonly<Record<string, string>> = Object.fromEntries(
  pageNames.flatMap((name) => {
    const to = pages[name].redirect;
    return to ? [[paths[name], to]] : [];
  }),
);

/** The source file of the chunk that renders `path` (undefined: the app's first chunk has it). */
export function pageModule(path: string): string | undefined {
  return pageAt(path)?.facts.module;
}

/**
 * One path per kind of page, what a measurement visits by default (scripts/first-visit.mjs): each
 * page that runs machines, a docs page, and a CLI page (which also loads the command builder).
 */
export const samplePaths: readonly string[] = [
  paths.landing,
  paths.status,
  paths.telekinesis,
  docsDefaultPath,
  docsPath("dmt"),
];

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
