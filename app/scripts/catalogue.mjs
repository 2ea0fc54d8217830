// The page catalogue (app/common/routes.ts) for the plain-Node scripts, which cannot import
// TypeScript: the server bundle the build makes (dist-ssr/entry-server.mjs, `npm run build`) exports
// it (`paths`, `samplePaths`, `pageModule`, `redirects`). Loading the bundle instantiates the app's
// wasm core in Node, a fraction of a second.
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The server bundle's URL (scripts/prerender.mjs loads one copy of it per configuration variant). */
export const serverBundle = pathToFileURL(
  join(fileURLToPath(new URL("..", import.meta.url)), "dist-ssr", "entry-server.mjs"),
).href;

/** The catalogue's exports, from a copy of the bundle loaded without a variant's configuration. */
export async function loadCatalogue() {
  try {
    return await import(`${serverBundle}?catalogue`);
  } catch (error) {
    throw new Error(
      `the page catalogue is read from the app's server bundle; build the app first (make app): ${error}`,
    );
  }
}
