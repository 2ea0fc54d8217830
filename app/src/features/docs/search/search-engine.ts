// Docs search in the browser: loads the build-time index chunk once and turns MiniSearch hits into
// results with a short excerpt around the first matching word.

import { indexOptions, queryOptions, type SearchDocument } from "@common/search-options";
import MiniSearch from "minisearch";

export type SearchResult = Omit<SearchDocument, "text" | "id"> & {
  id: string;
  /** Where to go: the page route plus `#anchor` when the entry is a section. */
  href: string;
  /** Excerpt of the section split into plain and matching parts, for <mark>. */
  excerpt: { text: string; match: boolean }[];
};

export type DocsSearch = (query: string) => SearchResult[];

const maxResults = 20;
const excerptLength = 150;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Cuts ~150 characters of `text` around the first of `terms` and marks every term in the cut.
 * Terms are MiniSearch's matched index terms (lower case, possibly longer than what was typed).
 */
export function makeExcerpt(text: string, terms: readonly string[]): SearchResult["excerpt"] {
  const words = [...new Set(terms.filter((term) => term.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
  const pattern = words.length > 0 ? new RegExp(words.map(escapeRegExp).join("|"), "gi") : null;
  const first = pattern ? text.search(pattern) : -1;
  let start = first > 40 ? text.lastIndexOf(" ", first - 30) + 1 : 0;
  if (start < 0) start = 0;
  let end = Math.min(text.length, start + excerptLength);
  if (end < text.length) {
    const space = text.lastIndexOf(" ", end);
    if (space > start) end = space;
  }
  const cut = `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
  if (!pattern) return [{ text: cut, match: false }];
  const parts: SearchResult["excerpt"] = [];
  let last = 0;
  for (const found of cut.matchAll(pattern)) {
    const at = found.index ?? 0;
    if (at > last) parts.push({ text: cut.slice(last, at), match: false });
    parts.push({ text: found[0], match: true });
    last = at + found[0].length;
  }
  if (last < cut.length) parts.push({ text: cut.slice(last), match: false });
  return parts;
}

export function createSearch(index: MiniSearch<SearchDocument>): DocsSearch {
  return (query) => {
    if (query.trim() === "") return [];
    return index
      .search(query, queryOptions)
      .slice(0, maxResults)
      .map((hit) => {
        const entry = hit as unknown as SearchDocument & { terms: string[] };
        return {
          id: String(hit.id),
          path: entry.path,
          anchor: entry.anchor,
          page: entry.page,
          heading: entry.heading,
          kind: entry.kind,
          href: entry.anchor ? `${entry.path}#${entry.anchor}` : entry.path,
          excerpt: makeExcerpt(entry.text, hit.terms),
        };
      });
  };
}

let loading: Promise<DocsSearch> | undefined;

/** Fetches the index chunk on first call (and again after a failure); later calls share it. */
export function loadDocsSearch(): Promise<DocsSearch> {
  loading ??= import("virtual:mg-search-index").then(
    (module) => createSearch(MiniSearch.loadJSON<SearchDocument>(module.default, indexOptions)),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
