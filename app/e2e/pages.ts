// The pages the specs visit and what each shows: its first heading and its document title (the part
// before " · mg"). One table, so a renamed page is changed here once.
const page = (path: string, heading: string, title = heading) =>
  ({ path, heading, title }) as const;

export const pages = {
  landing: page("/", "Apotheosis"),
  status: page("/apotheosis", "Apotheosis status"),
  telekinesis: page("/telekinesis", "Telekinesis"),
  overview: page("/mg/overview", "Deploy into your own AWS account", "Overview"),
  quickstart: page("/mg/quickstart", "Quick Start"),
  flow: page("/mg/flow", "Flow"),
  configuration: page("/mg/configuration", "Configuration"),
  cliMain: page("/mg/cli/main", "CLI Overview"),
  cliDmt: page("/mg/cli/dmt", "DMT Commands"),
  cliLsd: page("/mg/cli/lsd", "LSD Commands"),
  safety: page("/mg/safety", "Confirmations and safety"),
  esp: page("/mg/esp", "ESP"),
  dream: page("/mg/dream", "DREAM"),
  bench: page("/bench", "Graphics bench"),
  notFound: page("/no-such-page", "Page not found"),
} as const;

/** Aliases show another page and name it as their canonical address. */
export const aliases: Record<string, string> = {
  "/docs": pages.overview.path,
  "/mg/cli": pages.cliMain.path,
  "/mg/dmt": pages.cliDmt.path,
  "/mg/lsd": pages.cliLsd.path,
};

/** What the page at `path` shows (an alias: what its canonical page shows), if the table has it. */
export function shownAt(path: string) {
  const canonical = aliases[path] ?? path;
  return Object.values(pages).find((entry) => entry.path === canonical);
}

/** Every docs page, in the page catalogue's order (the order sitemap.xml lists them in). */
export const docsPages = [
  pages.overview,
  pages.quickstart,
  pages.flow,
  pages.configuration,
  pages.safety,
  pages.esp,
  pages.dream,
  pages.cliMain,
  pages.cliDmt,
  pages.cliLsd,
] as const;
