import { expect, test } from "@playwright/test";
import { axeViolations, horizontalOverflow, lookAt } from "./checks";
import { pages } from "./pages";

// Every public page in both themes at desktop and mobile width: 0 axe violations against the
// WCAG 2.2 AA tags, no horizontal scroll, and (with E2E_SCREENSHOTS=1) a full-page screenshot to
// look at. axe on the long docs pages at 375 px takes a while on a shared two-core machine.
test.describe.configure({ timeout: 60_000 });

const visited = [
  { name: "landing", ...pages.landing },
  { name: "status", ...pages.status },
  { name: "telekinesis", ...pages.telekinesis },
  { name: "telekinesis-lsd", ...pages.telekinesis, path: "/telekinesis?tab=lsd" },
  { name: "not-found", ...pages.notFound },
  { name: "docs-overview", ...pages.overview },
  { name: "docs-cli-dmt", ...pages.cliDmt },
] as const;

// Two pages have their matrix in the spec about them, with more of the page open, so axe runs once
// per page, theme and width: the status page with a day's tooltip open (status-history.spec.ts) and
// the longest docs page with the mobile docs menu open (docs-polish.spec.ts).
const auditedElsewhere = new Set<string>(["status", "docs-cli-dmt"]);

const widths = [
  { label: "desktop", width: 1280, height: 800 },
  { label: "mobile", width: 375, height: 740 },
] as const;

for (const theme of ["cosmic", "void"] as const) {
  for (const viewport of widths) {
    for (const target of visited.filter((page) => !auditedElsewhere.has(page.name))) {
      test(`${target.name} in ${theme} at ${viewport.width} px has no axe violations`, async ({
        page,
      }) => {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await page.addInitScript((value) => localStorage.setItem("theme", value), theme);
        await page.goto(target.path);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(target.heading);
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        // Wait for the first health checks so the screenshot shows settled cards.
        if (target.name === "landing" || target.name === "status") {
          await expect(page.getByText("Checking"))
            .toHaveCount(0, { timeout: 5_000 })
            .catch(() => {});
        }

        expect(await axeViolations(page)).toEqual([]);

        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

        await lookAt(page, `${target.name}-${theme}-${viewport.width}`, { fullPage: true });
      });
    }
  }
}

test("the 320 px layout never scrolls sideways", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  for (const target of visited) {
    await page.goto(target.path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(target.heading);
    expect(await horizontalOverflow(page), target.path).toBeLessThanOrEqual(0);
  }
});
