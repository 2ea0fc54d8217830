// The route table of spec 2.1: every path the app answers, in one place.

export const paths = {
  landing: "/",
  status: "/apotheosis",
  docsRoot: "/mg",
  metagenesis: "/metagenesis",
  docsCli: "/mg/cli/:subtab",
  docsTab: "/mg/:tab",
  telekinesis: "/telekinesis",
  docs: "/docs",
  authCallback: "/auth/callback",
  dashboard: "/home",
} as const;

/** Where `/metagenesis` and `/mg` send people (history is replaced). */
export const docsDefaultPath = "/mg/overview";
