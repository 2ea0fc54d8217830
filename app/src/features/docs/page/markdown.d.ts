// Types of the modules the docs Markdown plugin (app/vite/markdown-plugin.ts) provides.

declare module "*.md" {
  /** The rendered page; its Markdown twin comes from `*.md?markdown`. */
  const page: import("@common/docs-types").RenderedPage;
  export default page;
}

declare module "*.md?markdown" {
  /** The page's Markdown twin (title, description, body, CLI reference as tables), for "Copy page as Markdown". */
  const markdown: string;
  export default markdown;
}

declare module "virtual:mg-docs-index" {
  /** Front matter of every page in src/content/docs, sorted by `order`. */
  export const docsIndex: ReadonlyArray<
    { slug: string } & import("@common/docs-types").DocsFrontMatter
  >;
}

declare module "virtual:mg-cli-catalogue/*" {
  /** The CLI catalogue with only one tool's commands (and those they link to). */
  const catalogue: import("@common/catalogue-types").CliCatalogue;
  export default catalogue;
}

declare module "virtual:mg-search-index" {
  /** The docs search index built by MiniSearch at build time, serialised as JSON. */
  const serialisedIndex: string;
  export default serialisedIndex;
}
