import { expect, type Page, test } from "@playwright/test";
import { axeViolations, horizontalOverflow, hydrated, lookAt, showTheme } from "./checks";

// Docs polish: the sidebar's 'coming soon' badges sit on their items' lines in one column; its
// column rule runs the page's full height; and it links every entry that has a page (only the rest
// say 'coming soon'). That no word in a docs table cell breaks mid-word, at 1280 and 375 px, is
// checked on every docs page by the page sweep (pages.spec.ts).

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

// One load of the longest docs page; the width and the theme are changed in place (the docs menu,
// which needs React, opened at 375 px).
test("sidebar badges sit on their items' lines; the column rule runs the full height (both themes, 1280 and 375 px)", async ({
  page,
}) => {
  // Three axe runs over the longest page, each up to half a minute on a loaded two-core machine.
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/mg/cli/dmt");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The prerendered menu button does nothing until React has taken the page over.
  await hydrated(page);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    if (width < 768) await page.getByRole("button", { name: "Docs menu" }).click();
    for (const theme of ["cosmic", "void"] as const) {
      await showTheme(page, theme);
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
        await page.evaluate(() => window.scrollTo(0, 0));
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
      // This page's axe and overflow checks for the page sweep's matrix, with the docs menu open
      // (in the void theme only the theme's rules: the cosmic one ran every rule on this layout).
      // The cosmic theme at 1280 px, where no menu opens, is the page sweep's own load of this page.
      const themeOnly = theme === "void";
      if (themeOnly || width < 768) {
        expect(await axeViolations(page, { themeOnly }), `${theme} at ${width} px`).toEqual([]);
      }
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await lookAt(page, `docs-sidebar-${theme}-${width}`);
      if (width >= 900) {
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight - 1600));
        await lookAt(page, `docs-sidebar-bottom-${theme}-${width}`);
      }
    }
  }
});
