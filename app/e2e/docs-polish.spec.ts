import { expect, type Page, test } from "@playwright/test";
import { axeViolations, horizontalOverflow, hydrated, lookAt } from "./checks";

// Docs polish: no word in a table cell breaks mid-word; the sidebar's 'coming soon'
// badges sit on their items' lines in one column; its column rule runs the page's full height; and
// it links every entry that has a page (only the rest say 'coming soon').

const docsPages = [
  "overview",
  "quickstart",
  "flow",
  "configuration",
  "safety",
  "dream",
  "esp",
  "cli",
  "cli/dmt",
  "cli/lsd",
];

/** Words (letters, digits, `_`, `.`) of table cells whose characters sit on more than one line. */
function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    for (const cell of document.querySelectorAll(".docs-prose td, .docs-prose th")) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const match of text.matchAll(/[\p{L}\p{N}_.]+/gu)) {
          const range = document.createRange();
          range.setStart(node, match.index ?? 0);
          range.setEnd(node, (match.index ?? 0) + match[0].length);
          const tops = new Set(
            [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
          );
          if (tops.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}

for (const width of [1280, 375]) {
  test(`no word in a docs table cell breaks mid-word at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const found: Record<string, string[]> = {};
    let cells = 0;
    for (const slug of docsPages) {
      await page.goto(`/mg/${slug}`);
      await expect(page.locator(".docs-prose").first()).toBeVisible();
      cells += await page.locator(".docs-prose td").count();
      const broken = await brokenWords(page);
      if (broken.length) found[slug] = broken;
    }
    expect(cells).toBeGreaterThan(20);
    expect(found).toEqual({});
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });
}

test("the overview table at 1280 px keeps 'DMT' whole and scrolls rather than overflows", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/mg/overview");
  const table = page.locator(".docs-prose table").first();
  await table.scrollIntoViewIfNeeded();
  await expect(table).toContainText("DMT");
  await lookAt(page, "docs-overview-table-1280");
});

const sidebar = (page: Page) => page.getByRole("navigation", { name: "Docs sections" });

test("the sidebar links every entry with a page; only the rest say 'coming soon'", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/mg/overview");
  const nav = sidebar(page);
  await expect(nav.locator(".docs-badge")).toHaveCount(1);
  await expect(nav.locator(".docs-sidebar__soon")).toHaveText(["Apotheosis coming soon"]);
  await nav.getByRole("link", { name: "Telekinesis", exact: true }).click();
  await expect(page).toHaveURL(/\/telekinesis$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Telekinesis");
});

for (const theme of ["cosmic", "void"] as const) {
  for (const width of [1280, 375]) {
    test(`sidebar badges sit on their items' lines; the column rule runs the full height (${theme}, ${width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.addInitScript((value) => localStorage.setItem("theme", value), theme);
      // The longest docs page.
      await page.goto("/mg/cli/dmt");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      // The prerendered menu button does nothing until React has taken the page over.
      await hydrated(page);
      if (width < 768) await page.getByRole("button", { name: "Docs menu" }).click();
      const badges = await sidebar(page)
        .locator(".docs-sidebar__soon")
        .evaluateAll((items) =>
          items.map((item) => {
            const badge = item.querySelector(".docs-badge")?.getBoundingClientRect();
            const range = document.createRange();
            range.selectNodeContents(item.firstChild as Node);
            const label = range.getBoundingClientRect();
            const box = item.getBoundingClientRect();
            return {
              middleGap: badge
                ? Math.abs(badge.top + badge.height / 2 - (label.top + label.height / 2))
                : 99,
              rightGap: badge ? box.right - badge.right : 99,
            };
          }),
        );
      expect(badges.length).toBeGreaterThan(0);
      for (const badge of badges) {
        expect(badge.middleGap).toBeLessThan(3);
        // At the item's right edge (inside its padding), the same for every badge.
        expect(badge.rightGap).toBeGreaterThanOrEqual(0);
        expect(badge.rightGap).toBeLessThan(12);
      }
      if (width >= 900) {
        // The rule between sidebar and page goes down to the end of the page's content.
        const rule = await page.evaluate(() => {
          const spans: { top: number; bottom: number }[] = [];
          const side = document.querySelector(".docs-side");
          const main = document.querySelector(".docs-main");
          if (side && Number.parseFloat(getComputedStyle(side).borderRightWidth) > 0)
            spans.push(side.getBoundingClientRect());
          if (main && Number.parseFloat(getComputedStyle(main).borderLeftWidth) > 0)
            spans.push(main.getBoundingClientRect());
          const article = document.querySelector(".docs-article")?.getBoundingClientRect();
          return {
            bottom: Math.max(0, ...spans.map((span) => span.bottom)),
            articleBottom: article?.bottom ?? 0,
          };
        });
        expect(rule.articleBottom).toBeGreaterThan(2000);
        expect(rule.bottom).toBeGreaterThanOrEqual(rule.articleBottom);
      }
      // This page's axe and overflow checks for a11y.spec.ts's matrix, with the docs menu open.
      expect(await axeViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await lookAt(page, `docs-sidebar-${theme}-${width}`);
      if (width >= 900) {
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight - 1600));
        await lookAt(page, `docs-sidebar-bottom-${theme}-${width}`);
      }
    });
  }
}
