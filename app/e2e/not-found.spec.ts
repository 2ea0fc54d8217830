import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";

// The client-side 404 page. The HTTP status of unknown paths is the server's job (404 outside the
// route manifest, docs/architecture.md "Where code goes"); this spec checks what people see.
for (const path of ["/nope", "/telekinesis/extra", "/apotheosis/x/y"]) {
  test(`${path} shows the 404 page with a title and a way back`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await expect(page).toHaveTitle("Page not found · mg");
    await expect(page.locator("main")).toContainText(path);
    await page.getByRole("link", { name: "Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
}

// The graphics harness is a test page: its own build (app/dist-harness), never shipped with the app.
// (The e2e server serves it beside the app for the graphics spec, so this reads the build itself.)
test("the production build does not contain the graphics harness page", () => {
  const dist = fileURLToPath(new URL("../dist", import.meta.url));
  expect(existsSync(join(dist, "index.html"))).toBe(true);
  expect(existsSync(join(dist, "graphics.html"))).toBe(false);
  const shipped = readdirSync(join(dist, "assets")).filter((name) =>
    /^graphics-[\w-]{8}\.(js|css)$/.test(name),
  );
  expect(shipped, "the harness entry's chunks").toEqual([]);
});
