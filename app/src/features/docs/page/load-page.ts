// Lazy loaders for docs pages, the CLI catalogue and the command builder, each its own chunk.

import type { CliCatalogue, CliToolId } from "@common/catalogue-types";
import type { RenderedPage } from "@common/docs-types";

const pageLoaders = import.meta.glob<RenderedPage>("../../../content/docs/*.md", {
  import: "default",
});

/**
 * Marks the promise with its outcome the way React's `use` reads it (`status` and `value`), so a
 * page whose data is already here (visited before) renders at once instead of suspending for a tick.
 */
function tracked<T>(promise: Promise<T>): Promise<T> {
  const marked = promise as Promise<T> & { status?: string; value?: T; reason?: unknown };
  marked.status ??= "pending";
  promise.then(
    (value) => {
      marked.status = "fulfilled";
      marked.value = value;
    },
    (reason: unknown) => {
      marked.status = "rejected";
      marked.reason = reason;
    },
  );
  return promise;
}

// One promise per page so React's `use` sees the same promise on every render.
const pages = new Map<string, Promise<RenderedPage>>();

export function loadDocsPage(slug: string): Promise<RenderedPage> {
  let promise = pages.get(slug);
  if (!promise) {
    const loader = pageLoaders[`../../../content/docs/${slug}.md`];
    promise = tracked(loader ? loader() : Promise.reject(new Error(`No docs page ${slug}`)));
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
    promise = tracked(catalogueLoaders[tool]().then((module) => module.default));
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

// Docs pages whose server-rendered body is on screen, waiting to be hydrated: their text, reference and
// contents are adopted from the HTML as they are, so the first visit does not download them a second
// time (the page's Markdown and CLI catalogue chunks); see DocsContent.
/**
 * The server-rendered HTML of a docs page's body, read from the document before hydration: its prose,
 * its CLI reference and its contents (absent when the page has none).
 */
export type AdoptedPage = { prose: string; reference?: string; toc?: string };

const adopted = new Map<string, AdoptedPage>();

/** main.tsx, before hydrating the prerendered docs page `slug`. */
export function adoptServerRenderedPage(slug: string, page: AdoptedPage): void {
  adopted.set(slug, page);
}

/** The page `slug`'s server-rendered HTML being hydrated, if it is. */
export function adoptedPage(slug: string): AdoptedPage | undefined {
  return adopted.get(slug);
}

/** Called once the page has hydrated: later visits of the page render it from its data again. */
export function releaseAdopted(slug: string): void {
  adopted.delete(slug);
}
