// The app's route table (spec 2.1), in one place for the app and its build. The build writes the
// concrete paths to dist/routes.json (vite/route-manifest.ts); the server reads that file at start to
// answer 404 for every other path. Neutral ground: imports nothing from src/ or vite/.

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

/** Where `/metagenesis` and `/mg` send people (history is replaced). */
export const docsDefaultPath = "/mg/overview";

/** The CLI sub-row of the docs (spec 2.7): `/mg/cli/{subtab}` shows the page `slug`. */
export const cliSubtabs = [
  { subtab: "main", slug: "cli", label: "CLI Overview" },
  { subtab: "dmt", slug: "dmt", label: "DMT Commands" },
  { subtab: "lsd", slug: "lsd", label: "LSD Commands" },
] as const;

/** The canonical route of a docs page: CLI pages live under /mg/cli/, every other page at /mg/<slug>. */
export function docsPath(slug: string): string {
  if (slug === "cli") return "/mg/cli/main";
  if (slug === "dmt" || slug === "lsd") return `/mg/cli/${slug}`;
  return `/mg/${slug}`;
}

/** What dist/routes.json holds: every concrete path the app answers. */
export type RouteManifest = {
  /** Answered in every mode. */
  public: string[];
  /** Answered only in sanctified mode (spec 2.1: sign-in routes). */
  signedIn: string[];
};

/** The manifest for a build whose docs pages have these slugs (`/mg/:tab` takes any of them). */
export function routeManifest(docSlugs: readonly string[]): RouteManifest {
  return {
    public: [
      paths.landing,
      paths.status,
      paths.docsRoot,
      paths.metagenesis,
      paths.telekinesis,
      paths.bench,
      paths.docs,
      ...docSlugs.map((slug) => `/mg/${slug}`),
      ...cliSubtabs.map(({ subtab }) => `/mg/cli/${subtab}`),
    ],
    signedIn: [paths.authCallback, paths.dashboard],
  };
}
