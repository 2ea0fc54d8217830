// @vitest-environment node
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { docsPath, routeManifest } from "../common/routes";
import { resolveDocsRoute } from "../src/features/docs/page/docs-nav";
import { docSlugs } from "./route-manifest";

const docsDir = fileURLToPath(new URL("../src/content/docs", import.meta.url));

describe("the route manifest the server reads", () => {
  const manifest = routeManifest(docSlugs(docsDir));

  it("lists every docs page at its canonical path and under /mg/<slug>", () => {
    for (const slug of docSlugs(docsDir)) {
      expect(manifest.public).toContain(docsPath(slug));
      expect(manifest.public).toContain(`/mg/${slug}`);
    }
  });

  it("lists only docs paths the app renders a page for", () => {
    for (const path of manifest.public.filter((p) => p.startsWith("/mg/"))) {
      const [, , tab, subtab] = path.split("/");
      expect(resolveDocsRoute(tab ?? "", subtab), path).not.toBeNull();
    }
  });

  it("names the pages sent cross-origin isolated: the bench alone", () => {
    expect(manifest.isolated).toEqual(["/bench"]);
  });

  it("keeps the sign-in routes apart, for sanctified mode only", () => {
    expect(manifest.signedIn).toEqual(["/auth/callback", "/home"]);
    expect(manifest.public).not.toContain("/home");
  });
});
