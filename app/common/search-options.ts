// What a docs search entry holds and how MiniSearch indexes it, shared by the build-time index
// (vite/search-index.ts) and the browser, which must load the index with the same options.
import type { Options, SearchOptions } from "minisearch";

/** One searchable unit: a page's introduction, one heading section, or one CLI command. */
export type SearchDocument = {
  /** `path#anchor`, unique across the docs. */
  id: string;
  /** Route of the page, e.g. /mg/quickstart. */
  path: string;
  /** Heading id to land on; empty for a page's introduction (the top of the page). */
  anchor: string;
  /** Title of the page the entry is on. */
  page: string;
  /** The section's heading (the page title for an introduction, `mg dmt ssl` for a command). */
  heading: string;
  /** Plain text of the section, without Markdown. */
  text: string;
  kind: "page" | "section" | "command";
};

export const searchFields = ["heading", "text"] as const;

export const indexOptions: Options<SearchDocument> = {
  idField: "id",
  fields: [...searchFields],
  storeFields: ["path", "anchor", "page", "heading", "text", "kind"],
};

export const queryOptions: SearchOptions = {
  // Every word must match, as in most docs searches; the last one may still be half typed.
  combineWith: "AND",
  prefix: true,
  fuzzy: (term) => (term.length > 4 ? 0.2 : false),
  boost: { heading: 3 },
};
