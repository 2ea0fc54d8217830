// The build's server entry (docs/rendering.md): `vite build --ssr` bundles this file, with
// the app and the same wasm core, into dist-ssr/; scripts/prerender.mjs loads that bundle once per
// configuration variant (the variant's runtime config set first, as the server would inject it) and
// renders every public path with it. The machines' initial snapshots come from the real wasm, run in
// Node: the HTML holds exactly what the browser's first render does.

import { docsRouteAt, pageNames, pages, paths, redirects, routeManifest } from "@common/routes";
import { navOf, variantKey } from "@common/variant";
import type { ReactNode } from "react";
import { prerender } from "react-dom/static";
import { StaticRouter } from "react-router-dom";
import { App } from "./app/app";
import { type PageMeta, PageMetaContext } from "./components/document-title";
import { deploymentConfig, identityConfig, identityMisconfigured } from "./config/env";
import { readRuntimeConfig } from "./config/runtime-config";
import { docsPages, docsPath, resolveDocsRoute } from "./features/docs/page/docs-nav";
import { Deployment } from "./lib/wasm/core";

// The page catalogue, for the build's plain-Node scripts (scripts/catalogue.mjs).
export { pageModule, paths, redirects, samplePaths } from "@common/routes";
export { prerenderVariants, runtimeConfigOf } from "@common/variant";

/**
 * The variant key of the configuration this copy of the bundle was loaded with: its nav, and the
 * deployment type and flags as the wasm core resolves them (the rules the server applies through
 * mg-domain; common/variant-cases.json is checked on both sides).
 */
export function currentVariantKey(): string {
  const deployment = new Deployment(deploymentConfig, 0);
  try {
    const nav = navOf(identityConfig.sanctified, readRuntimeConfig().identityEmulator === true);
    return variantKey(nav, deployment.info());
  } finally {
    deployment.free();
  }
}

/** Every public path to prerender (routes.json's public paths, less the redirects). */
export function publicPaths(): string[] {
  const away = redirects();
  return routeManifest(docsPages.map((page) => page.slug)).public.filter(
    (path) => !Object.hasOwn(away, path),
  );
}

/**
 * The sign-in routes prerendered as their frame (`PageFacts.frame`: the page while the session is
 * read, nothing personal in it); only in a sanctified variant, the only one that has them.
 */
export function framePaths(): string[] {
  if (!identityConfig.sanctified) return [];
  return pageNames.filter((name) => pages[name].frame).map((name) => paths[name]);
}

/** A path the app answers with its not-found page (no route matches it). */
export const NOT_FOUND_PATH = "/__mg-prerender-not-found";

/**
 * Where a public path's canonical address is, and its Markdown twin for a docs page: `/docs`,
 * `/mg/cli` and `/mg/dmt` show the same page as `/mg/overview`, `/mg/cli/main`, `/mg/cli/dmt`.
 */
export function pageAddress(path: string): { canonical: string; markdown?: string } {
  const docs = docsRouteAt(path);
  const route = docs && resolveDocsRoute(docs.tab, docs.subtab);
  if (!route) return { canonical: path };
  const canonical = docsPath(route.page.slug);
  return { canonical, markdown: `${canonical}.md` };
}

export type Rendered = { html: string; meta: PageMeta | undefined };

/** Renders `path` with every lazy page and its data loaded (prerender waits for all Suspense). */
export async function render(path: string): Promise<Rendered> {
  if (identityMisconfigured)
    throw new Error("prerender: the variant's identity config is incomplete");
  let meta: PageMeta | undefined;
  const errors: unknown[] = [];
  const record = (next: PageMeta) => {
    meta = next;
  };
  const Router = ({ children }: { children: ReactNode }) => (
    <StaticRouter location={path}>{children}</StaticRouter>
  );
  const { prelude } = await prerender(
    <PageMetaContext value={record}>
      <App Router={Router} />
    </PageMetaContext>,
    {
      // Every boundary inline, in place: React would otherwise move a large finished boundary out of
      // the way behind a "Loading" fallback and an inline script that swaps it in, which a reader
      // without JavaScript never runs (and the CSP would have to allow).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError(error) {
        errors.push(error);
      },
    },
  );
  if (errors.length > 0) throw errors[0];
  const html = await new Response(prelude).text();
  if (html.includes("<script") || html.includes("<template")) {
    throw new Error(`prerender: ${path} rendered an inline script or a pending boundary`);
  }
  return { html, meta };
}
