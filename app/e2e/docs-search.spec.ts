import { expect, type Page, test } from "@playwright/test";
import { axeViolations, eachThemeAndWidth, hydrated, lookAt } from "./checks";

// Offline docs search: the build-time index chunk, the shortcuts, the combobox and listbox, and
// landing on the chosen heading.

const indexChunk = /mg-search-index/;

function searchDialog(page: Page) {
  return page.getByRole("dialog", { name: "Search the docs" });
}

function searchBox(page: Page) {
  return searchDialog(page).getByRole("combobox", { name: "Search the docs" });
}

/** Text shown in the dialog's body (the polite status region repeats some of it for screen readers). */
function visibleText(page: Page, text: string | RegExp) {
  return searchDialog(page).locator(".docs-search__body").getByText(text);
}

/** In view and not under the fixed site bar: the topmost element at its centre is the heading. */
async function expectUncovered(page: Page, selector: string) {
  await expect(page.locator(selector)).toBeInViewport();
  const onTop = await page.evaluate((target) => {
    const element = document.querySelector(target);
    if (!element) return false;
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + 4, box.top + box.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  }, selector);
  expect(onTop, `${selector} is covered`).toBe(true);
}

async function openDocs(page: Page, path = "/mg/overview") {
  await page.goto(path);
  await expect(page.getByRole("navigation", { name: "Previous and next pages" })).toBeVisible();
  // The prerendered page answers keys and clicks once hydrated.
  await hydrated(page);
}

test("Ctrl+K opens search, which fetches the index only then; Escape returns focus", async ({
  page,
}) => {
  const indexRequests: string[] = [];
  page.on("request", (request) => {
    if (indexChunk.test(request.url())) indexRequests.push(request.url());
  });
  await openDocs(page);
  await page.waitForLoadState("networkidle");
  expect(indexRequests).toEqual([]);

  const trigger = page.getByRole("button", { name: /Search docs/ });
  await trigger.focus();
  await page.keyboard.press("Control+k");
  await expect(searchDialog(page)).toBeVisible();
  await expect(searchDialog(page)).toHaveAttribute("aria-modal", "true");
  await expect(searchBox(page)).toBeFocused();
  await expect(searchBox(page)).toHaveAttribute("aria-expanded", "false");
  await expect.poll(() => indexRequests.length).toBe(1);

  await page.keyboard.press("Escape");
  await expect(searchDialog(page)).toBeHidden();
  await expect(trigger).toBeFocused();
});

test("Meta+K opens it too, and so does a click on the search button", async ({ page }) => {
  await openDocs(page, "/mg/flow");
  await page.keyboard.press("Meta+k");
  await expect(searchBox(page)).toBeFocused();
  await searchDialog(page).getByRole("button", { name: "Close" }).click();
  await expect(searchDialog(page)).toBeHidden();

  await page.getByRole("button", { name: /Search docs/ }).click();
  await expect(searchBox(page)).toBeFocused();
});

test('"/" opens search from the page, but types a slash inside a text field', async ({ page }) => {
  await openDocs(page, "/mg/cli/dmt");
  const link = page.getByRole("navigation", { name: "Docs tabs" }).getByRole("link", {
    name: "Flow",
  });
  await link.focus();
  await page.keyboard.press("/");
  await expect(searchBox(page)).toBeFocused();
  await expect(searchBox(page)).toHaveValue("");
  await page.keyboard.press("Escape");
  await expect(link).toBeFocused();

  const builder = page.getByRole("region", { name: "Command builder" });
  await builder.scrollIntoViewIfNeeded();
  const field = builder.getByLabel("<name>");
  await field.fill("feature");
  await field.press("/");
  await expect(field).toHaveValue("feature/");
  await expect(searchDialog(page)).toBeHidden();
});

test("a word from one section, ArrowDown and Enter land on that heading", async ({ page }) => {
  await openDocs(page, "/mg/overview");
  await page.keyboard.press("/");
  await searchBox(page).fill("mistyped");

  const results = searchDialog(page).getByRole("listbox", { name: "Results" });
  const options = results.getByRole("option");
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText("Typing the database name");
  await expect(options.first()).toContainText("Confirmations and safety");
  await expect(options.first().locator("mark")).toHaveText(["mistyped"]);
  await expect(searchBox(page)).toHaveAttribute("aria-expanded", "true");
  await expect(searchBox(page)).toHaveAttribute(
    "aria-controls",
    (await results.getAttribute("id")) ?? "",
  );
  await expect(searchDialog(page).getByRole("status")).toHaveText("1 result");

  await page.keyboard.press("ArrowDown");
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await expect(searchBox(page)).toHaveAttribute(
    "aria-activedescendant",
    (await options.first().getAttribute("id")) ?? "",
  );
  await page.keyboard.press("Enter");

  await expect(searchDialog(page)).toBeHidden();
  await expect(page).toHaveURL(/\/mg\/safety#typing-the-database-name$/);
  await expectUncovered(page, "#typing-the-database-name");
  await expect(page.getByRole("heading", { name: "Typing the database name" })).toBeFocused();
});

test("arrow keys wrap through results and Enter opens a CLI command's entry", async ({ page }) => {
  await openDocs(page, "/mg/quickstart");
  await page.keyboard.press("Control+k");
  await searchBox(page).fill("local port");
  const options = searchDialog(page).getByRole("option");
  await expect(options.first()).toContainText("mg dmt db");
  const count = await options.count();

  await page.keyboard.press("ArrowUp");
  await expect(options.nth(count - 1)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(/\/mg\/cli\/dmt#dmt-db$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("DMT Commands");
  await expectUncovered(page, "#dmt-db");
  await expect(page.locator("#dmt-db")).toBeFocused();
});

test("a click on a result lands there too, even for the section already open", async ({ page }) => {
  await openDocs(page, "/mg/quickstart");
  await page.getByRole("button", { name: /Search docs/ }).click();
  await searchBox(page).fill("propagation");
  await searchDialog(page)
    .getByRole("option", { name: /Wait for DNS/ })
    .click();
  await expect(page).toHaveURL(/\/mg\/quickstart#wait-for-dns$/);
  await expect(page.locator("#wait-for-dns")).toBeFocused();

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole("button", { name: /Search docs/ }).click();
  await searchBox(page).fill("propagation");
  await page.keyboard.press("Enter");
  await expectUncovered(page, "#wait-for-dns");
  await expect(page.locator("#wait-for-dns")).toBeFocused();
});

test("an unknown word shows the empty state", async ({ page }) => {
  await openDocs(page);
  await page.keyboard.press("/");
  await searchBox(page).fill("zyxwvutsrq");
  await expect(visibleText(page, "No results for “zyxwvutsrq”")).toBeVisible();
  await expect(searchDialog(page).getByRole("listbox")).toHaveCount(0);
  await expect(searchBox(page)).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/mg\/overview$/);
});

test("a slow index shows the loading state, then the results", async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(indexChunk, async (route) => {
    await held;
    await route.continue();
  });
  await openDocs(page);
  await page.keyboard.press("Control+k");
  await searchBox(page).fill("nginx");
  await expect(visibleText(page, "Loading the search index…")).toBeVisible();
  await expect(searchDialog(page).getByRole("status")).toHaveText("Loading the search index…");
  release();
  await expect(searchDialog(page).getByRole("option").first()).toBeVisible();
  await expect(visibleText(page, "Loading the search index…")).toHaveCount(0);
});

test("a failed index load says so and can be retried", async ({ page }) => {
  let fail = true;
  await page.route(indexChunk, (route) => (fail ? route.abort() : route.continue()));
  await openDocs(page);
  await page.keyboard.press("Control+k");
  await expect(searchDialog(page).getByRole("alert")).toContainText("could not load");
  fail = false;
  await searchDialog(page).getByRole("button", { name: "Try again" }).click();
  await searchBox(page).fill("mistyped");
  await expect(searchDialog(page).getByRole("option")).toHaveCount(1);
});

// One load; the width and the theme change in place, the dialog open. axe over a long docs page
// takes a while on a shared two-core machine.
test("the open search dialog in both themes at 1280 and 375 px has no axe violations", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openDocs(page, "/mg/quickstart");
  await page.getByRole("button", { name: /Search docs/ }).click();
  await searchBox(page).fill("instance size");
  await expect(searchDialog(page).getByRole("option").first()).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  const widths = [
    { width: 1280, height: 800 },
    { width: 375, height: 740 },
  ];
  await eachThemeAndWidth(page, widths, async ({ width, suffix, themeOnly }) => {
    const box = await searchDialog(page).boundingBox();
    expect(box?.width).toBeLessThanOrEqual(width);
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect(await axeViolations(page, { include: "dialog.docs-search", themeOnly }), suffix).toEqual(
      [],
    );
    await lookAt(page, `docs-search-${suffix}`);
  });
  await searchBox(page).fill("zyxwvutsrq");
  await expect(visibleText(page, /No results for/)).toBeVisible();
  await lookAt(page, "docs-search-empty");
});
