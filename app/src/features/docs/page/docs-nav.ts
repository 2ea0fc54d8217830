// The docs area's navigation model: which tabs exist, where each lives, and what comes next.
import { docsIndex } from "virtual:mg-docs-index";
import { cliSubtabs, docsPath, paths } from "@common/routes";

export { cliSubtabs, docsPath };

export type DocsIndexEntry = (typeof docsIndex)[number];

export const docsPages: readonly DocsIndexEntry[] = docsIndex;

/** Pages reached through the CLI sub-row or the sidebar instead of the tab row (spec 2.7). */
const notInTabRow = new Set(["dmt", "lsd", "esp", "dream"]);

/** Shorter tab labels where a page title is too long for the row. */
const tabLabels: Record<string, string> = { cli: "CLI", safety: "Safety" };

export type CliSubtab = (typeof cliSubtabs)[number]["subtab"];

function pageBySlug(slug: string): DocsIndexEntry | undefined {
  return docsPages.find((page) => page.slug === slug);
}

/** True for every tab `/mg/:tab` can show; the router renders its 404 for anything else. */
export function isDocsTab(tab: string): boolean {
  return pageBySlug(tab) !== undefined;
}

export function isCliSubtab(subtab: string): subtab is CliSubtab {
  return cliSubtabs.some((entry) => entry.subtab === subtab);
}

export type ResolvedDocsRoute = { page: DocsIndexEntry; tab: string; subtab?: CliSubtab };

/** Maps route params to the page to show, or null when there is no such page. */
export function resolveDocsRoute(tab: string, subtab?: string): ResolvedDocsRoute | null {
  if (tab === "cli") {
    const entry = cliSubtabs.find((candidate) => candidate.subtab === (subtab ?? "main"));
    const page = entry && pageBySlug(entry.slug);
    return entry && page ? { page, tab: "cli", subtab: entry.subtab } : null;
  }
  if (subtab !== undefined) return null;
  const page = pageBySlug(tab);
  if (!page) return null;
  // /mg/dmt and /mg/lsd show the CLI subtab they belong to.
  if (tab === "dmt" || tab === "lsd") return { page, tab: "cli", subtab: tab };
  return { page, tab };
}

export type DocsTabLink = { tab: string; label: string; to: string };

export const tabRow: readonly DocsTabLink[] = docsPages
  .filter((page) => !notInTabRow.has(page.slug))
  .map((page) => ({
    tab: page.slug,
    label: tabLabels[page.slug] ?? page.title,
    to: docsPath(page.slug),
  }));

/** A sidebar entry: a docs page (`slug`), another page of the site (`to`), or neither (coming soon). */
export type SidebarItem = { label: string; slug?: string; to?: string };
export type SidebarSection = { label: string; slug?: string; items: SidebarItem[] };

/**
 * Spec 2.7's sidebar; an entry links where the site has a page for it (a docs page, or the Telekinesis
 * page), and only the rest say 'coming soon'.
 */
export const sidebarSections: readonly SidebarSection[] = [
  {
    label: "DREAM",
    slug: "dream",
    items: [{ label: "Apotheosis" }, { label: "DMT", slug: "dmt" }],
  },
  {
    label: "ESP",
    slug: "esp",
    items: [
      { label: "Telekinesis", to: paths.telekinesis },
      { label: "LSD", slug: "lsd" },
    ],
  },
  { label: "Metagenesis", items: [{ label: "CLI Commands", slug: "cli" }] },
].map((section) => ({
  ...section,
  slug: section.slug && isDocsTab(section.slug) ? section.slug : undefined,
  items: section.items.map((item: SidebarItem) => ({
    label: item.label,
    slug: item.slug && isDocsTab(item.slug) ? item.slug : undefined,
    to: item.to,
  })),
}));

/** The pages before and after `slug` in front matter order. */
export function neighbours(slug: string): { previous?: DocsIndexEntry; next?: DocsIndexEntry } {
  const index = docsPages.findIndex((page) => page.slug === slug);
  if (index < 0) return {};
  return { previous: docsPages[index - 1], next: docsPages[index + 1] };
}
