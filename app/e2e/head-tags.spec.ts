import { expect, test } from "@playwright/test";
import { headTags } from "./checks";
import { aliases } from "./pages";
import { prerenderedPaths } from "./prerendered";

// Each page's own head tags (title, description, canonical, Open Graph, Twitter card, Markdown twin)
// are checked on the HTML the page sweep loads (pages.spec.ts); this compares the pages with one another.
test("pages that are not aliases of one another have titles and descriptions of their own", async ({
  request,
}) => {
  const titles = new Map<string, string>();
  const descriptions = new Map<string, string>();
  for (const path of prerenderedPaths.filter((path) => !(path in aliases))) {
    const tags = headTags(await (await request.get(path)).text());
    expect(titles.get(tags.title ?? ""), `${path}: same title`).toBeUndefined();
    expect(descriptions.get(tags.description ?? ""), `${path}: same description`).toBeUndefined();
    titles.set(tags.title ?? "", path);
    descriptions.set(tags.description ?? "", path);
  }
});
