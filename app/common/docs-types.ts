// What the docs build produces for a page, shared by the build (vite/) and the app that renders it.

export type DocsHeading = { depth: number; text: string; id: string };

export type DocsFrontMatter = { title: string; description: string; order: number };

/** What `import page from "./x.md"` yields. */
export type RenderedMarkdown = DocsFrontMatter & {
  html: string;
  headings: DocsHeading[];
  /** The Markdown body without front matter, for "Copy page as Markdown". */
  markdown: string;
};

/** What a docs page's chunk carries: everything but the Markdown body, which `loadMarkdown` fetches
 * as its own chunk (see markdown-plugin.ts). */
export type RenderedPage = Omit<RenderedMarkdown, "markdown"> & {
  loadMarkdown: () => Promise<string>;
};
