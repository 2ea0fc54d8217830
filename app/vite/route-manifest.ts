// Writes dist/routes.json: every concrete path the app answers (common/routes.ts), with the docs
// pages found in the content folder. The server reads it at start, so the app's route table is the
// only route table (a path not in it gets the app's 404 page with HTTP status 404).
import { readdirSync } from "node:fs";
import type { Plugin } from "vite";
import { routeManifest } from "../common/routes";

/** The slugs of the Markdown pages in `docsDir`, sorted. */
export function docSlugs(docsDir: string): string[] {
  return readdirSync(docsDir)
    .filter((name) => name.endsWith(".md"))
    .map((name) => name.slice(0, -3))
    .sort();
}

export const ROUTE_MANIFEST_FILE = "routes.json";

export function routeManifestPlugin(options: { docsDir: string }): Plugin {
  return {
    name: "mg-route-manifest",
    apply: "build",
    generateBundle() {
      this.emitFile({
        type: "asset",
        fileName: ROUTE_MANIFEST_FILE,
        source: `${JSON.stringify(routeManifest(docSlugs(options.docsDir)), null, 2)}\n`,
      });
    },
  };
}
