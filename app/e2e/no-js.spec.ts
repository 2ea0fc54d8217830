import { expect, type Page, test } from "@playwright/test";
import { horizontalOverflow } from "./checks";
import { docsPaths, prerenderedPaths } from "./prerendered";

// With JavaScript off (this spec's project), every public page shows its content, since the server
// sends it prerendered; the docs are fully readable and their links work. One load per page.

// At phone widths the docs sidebar and the main navigation fold behind buttons that need scripts;
// without them those buttons (and search, copy, theme, sign-in) are hidden and what they fold is
// shown. Checked at 375 px (the width changed in place) on a page of each layout.
const phoneChecked = new Set(["/mg/overview", "/", "/telekinesis"]);

// What works only with scripts says so, instead of showing "Checking" or a dead button forever.
const needsScript: Record<string, RegExp[]> = {
  "/": [/These cards check the stack from your browser/, /The button asks the server/],
  "/apotheosis": [/This page checks the stack and draws its history in your browser/],
  "/telekinesis": [/Switching between these tabs needs JavaScript/],
};

async function readableDocs(page: Page, path: string) {
  const title = (await page.title()).replace(/ · mg$/, "");
  // Its heading (the overview's hero has its own), its prose and its contents.
  await expect(page.locator("main h1")).toBeVisible();
  if (!path.endsWith("/overview") && path !== "/docs") {
    await expect(page.locator("main h1")).toHaveText(title);
  }
  const prose = page.locator(".docs-prose").first();
  await expect(prose).toBeVisible();
  expect((await prose.innerText()).length).toBeGreaterThan(200);
  // Nothing waits for a script that never runs.
  await expect(page.getByText(/Loading/)).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Docs sections" })).toBeVisible();
}

async function phoneLayout(page: Page, path: string) {
  await page.setViewportSize({ width: 375, height: 740 });
  const main = page.getByRole("navigation", { name: "Main" });
  for (const name of ["Apotheosis", "Telekinesis", "Metagenesis"]) {
    // (The menu's links, which scripts present as menu items.)
    const link = main.locator("a").filter({ hasText: new RegExp(`^${name}$`) });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute("href", /^\//);
  }
  for (const name of ["Menu", "Projects", "Log in", "Docs menu", "Copy page as Markdown"]) {
    await expect(page.getByRole("button", { name, exact: true })).toBeHidden();
  }
  await expect(page.getByRole("button", { name: /Search docs|theme/ })).toHaveCount(0);
  if (path.startsWith("/mg/")) {
    const sections = page.getByRole("navigation", { name: "Docs sections" });
    await expect(sections.getByRole("link", { name: "DMT" })).toBeVisible();
  }
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  // The header scrolls away with the page instead of covering the top of its content.
  await expect(page.locator("main h1")).toBeInViewport();
}

for (const path of prerenderedPaths) {
  test(`${path} is readable without JavaScript`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    if (docsPaths.includes(path)) {
      await readableDocs(page, path);
    } else {
      await expect(page.locator("main h1")).toBeVisible();
      expect((await page.locator("main").innerText()).length).toBeGreaterThan(100);
    }
    for (const note of needsScript[path] ?? []) await expect(page.getByText(note)).toBeVisible();
    if (path === "/") {
      await expect(page.locator(".needs-script a[href='/db-health']")).toBeVisible();
    }
    if (phoneChecked.has(path)) await phoneLayout(page, path);
  });
}

test("docs links work without JavaScript: the sidebar and the pager lead to the next page", async ({
  page,
}) => {
  await page.goto("/mg/overview");
  await page
    .getByRole("navigation", { name: "Previous and next pages" })
    .getByRole("link")
    .first()
    .click();
  await expect(page).not.toHaveURL(/\/mg\/overview$/);
  await expect(page.locator("main h1")).toBeVisible();
  expect((await page.locator(".docs-prose").first().innerText()).length).toBeGreaterThan(200);
  await page.goBack();
  await page
    .getByRole("navigation", { name: "Docs sections" })
    .getByRole("link", { name: "ESP" })
    .click();
  await expect(page).toHaveURL(/\/mg\/esp$/);
  await expect(page.locator("main h1")).toHaveText((await page.title()).replace(/ · mg$/, ""));
});
