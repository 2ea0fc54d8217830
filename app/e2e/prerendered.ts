// The prerendered routes, read from the build's manifest (dist/pages.json, docs/rendering.md), so
// the specs cover every page the build prerenders without a list of their own.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

type Manifest = { pages: Record<string, Record<string, string>> };

const manifestPath = fileURLToPath(new URL("../dist/pages.json", import.meta.url));

/** Every prerendered public path (the not-found page is not in this list). */
export const prerenderedPaths: string[] = Object.keys(
  (JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest).pages,
);

/** The prerendered docs pages: `/docs` and every `/mg/...` path. */
export const docsPaths = prerenderedPaths.filter(
  (path) => path === "/docs" || path.startsWith("/mg/"),
);

/** An address no route answers: the server sends the prerendered not-found page with 404. */
export const missingPath = "/no-such-page";
