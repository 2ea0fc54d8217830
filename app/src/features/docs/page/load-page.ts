// Lazy loaders for docs pages, the CLI catalogue and the command builder, each its own chunk.

import type { CliCatalogue, CliToolId } from "../../../../shared/catalogue-types";
import type { RenderedPage } from "../../../../shared/docs-types";

const pageLoaders = import.meta.glob<RenderedPage>("../../../content/docs/*.md", {
  import: "default",
});

// One promise per page so React's `use` sees the same promise on every render.
const pages = new Map<string, Promise<RenderedPage>>();

export function loadDocsPage(slug: string): Promise<RenderedPage> {
  let promise = pages.get(slug);
  if (!promise) {
    const loader = pageLoaders[`../../../content/docs/${slug}.md`];
    promise = loader ? loader() : Promise.reject(new Error(`No docs page ${slug}`));
    pages.set(slug, promise);
  }
  return promise;
}

// Literal imports, one per tool, so each tool's slice of the catalogue is its own small chunk.
const catalogueLoaders: Record<CliToolId, () => Promise<{ default: CliCatalogue }>> = {
  mg: () => import("virtual:mg-cli-catalogue/mg"),
  dmt: () => import("virtual:mg-cli-catalogue/dmt"),
  lsd: () => import("virtual:mg-cli-catalogue/lsd"),
  esp: () => import("virtual:mg-cli-catalogue/esp"),
};

const catalogues = new Map<CliToolId, Promise<CliCatalogue>>();

export function loadCatalogue(tool: CliToolId): Promise<CliCatalogue> {
  let promise = catalogues.get(tool);
  if (!promise) {
    promise = catalogueLoaders[tool]().then((module) => module.default);
    catalogues.set(tool, promise);
  }
  return promise;
}

let builder: Promise<typeof import("../builder/command-builder")> | undefined;

/**
 * The command builder of the CLI pages: its own chunk, shared by the three pages. A failed fetch is
 * forgotten, so trying again fetches again.
 */
export function loadCommandBuilder(): Promise<typeof import("../builder/command-builder")> {
  builder ??= import("../builder/command-builder").catch((error: unknown) => {
    builder = undefined;
    throw error;
  });
  return builder;
}
