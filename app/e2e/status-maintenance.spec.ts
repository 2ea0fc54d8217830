import { expect, type Page, test } from "@playwright/test";
import { axeViolations, eachThemeAndWidth, horizontalOverflow, lookAt } from "./checks";
import { STATUS_OPERATOR } from "./operators";
import { requireEmulator, signIn } from "./sign-in";

// Maintenance on /apotheosis's day bars (docs/status-operators.md, "Maintenance on the day bars"):
// a day whose checks failed only inside a maintenance window shows as maintenance (dashed, its own
// colour, a legend entry, and words in its accessible name and tooltip); a day that failed outside
// the window too keeps the outage colour with the maintenance noted. The fresh e2e server has no
// failed check, so its page answer is given those two days (the server's own computation of them
// is tested in server/tests/api/status_maintenance_days.rs). The page stays axe clean for a visitor
// and for an operator, in both themes at both widths.

const WINDOW = "Database upgrade";

/** The database's last two days in the page answer: yesterday down outside a window too, today in
 *  maintenance only. */
async function withMaintenanceDays(page: Page) {
  await page.route(/\/api\/status\/page/, async (route) => {
    const headers = { ...route.request().headers() };
    delete headers["if-none-match"];
    const response = await route.fetch({ headers });
    const body = await response.json();
    const db = body.history.find((h: { component: string }) => h.component === "db");
    const points: object[] = db.daily.points;
    const maintenance = { failures: 2, windows: [WINDOW] };
    // A later poll's incremental answer (`?since=`) holds only today's point.
    const yesterday = body.since === null ? points.at(-2) : undefined;
    if (yesterday)
      Object.assign(yesterday, { checks: 1440, failures: 146, uptime: 90, maintenance });
    const today = points.at(-1);
    if (today) Object.assign(today, { failures: 2, uptime: 100, maintenance });
    await route.fulfill({ response, json: body });
  });
}

async function openStatus(page: Page) {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/apotheosis");
  await expect(page.getByTestId("bars-db").getByRole("img")).toHaveCount(90);
}

test("a day failing only inside a window shows as maintenance, with its words", async ({
  page,
}) => {
  await withMaintenanceDays(page);
  await openStatus(page);
  const bars = page.getByTestId("bars-db").getByRole("img");
  const today = bars.last();
  await expect(today).toHaveAttribute(
    "aria-label",
    new RegExp(`^\\d+ \\w+ \\d{4}: Maintenance: 2 failed checks during '${WINDOW}', 0 incidents$`),
  );
  await expect(today).toHaveClass(/bar--maintenance/);
  const yesterday = bars.nth(88);
  await expect(yesterday).toHaveAttribute(
    "aria-label",
    /: 90% uptime, 0 incidents; Maintenance: 2 failed checks during 'Database upgrade'$/,
  );
  await expect(yesterday).toHaveClass(/bar--down/);
  // The API's bars have no maintenance.
  await expect(page.getByTestId("bars-api").locator(".bar--maintenance")).toHaveCount(0);

  await today.hover();
  await expect(page.getByTestId("bar-tooltip-db")).toContainText(
    `Maintenance: 2 failed checks during '${WINDOW}'`,
  );
  await expect(page.getByTestId("bars-summary-db")).toHaveText(
    /^Database, last 90 days: [\d.]+% uptime \(checks inside maintenance windows left out\), 2 days with checks, 0 with incidents, 1 in maintenance, lowest day .+ at 90%\.$/,
  );
  const legend = page.getByTestId("bars-legend");
  await expect(legend.getByRole("listitem")).toHaveText([
    "Up (99.9% or more)",
    "Partial (95% or more)",
    "Outage",
    "Maintenance (dashed)",
    "No data",
  ]);
  await expect(legend).toContainText("left out of the uptime figures");
});

test("the legend is in the prerendered page, readable without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/apotheosis");
  const legend = page.getByTestId("bars-legend");
  await expect(legend).toContainText("Maintenance (dashed)");
  await expect(legend).toContainText("Checks inside maintenance windows are left out");
  await context.close();
});

// One load for each; the width and the theme change in place, the tooltip opened again at each width.
for (const who of ["a visitor", "an operator"] as const) {
  test(`maintenance bars for ${who} in both themes at 1280 and 375 px: axe clean`, async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    if (who === "an operator") {
      await requireEmulator(request);
      await signIn(page, STATUS_OPERATOR);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await withMaintenanceDays(page);
    await openStatus(page);
    if (who === "an operator") await expect(page.getByTestId("operator-view")).toBeVisible();
    const widths = [
      { width: 1280, height: 900 },
      { width: 375, height: 900 },
    ];
    await eachThemeAndWidth(page, widths, async ({ suffix, themeOnly }) => {
      await page.getByTestId("bars-db").getByRole("img").last().hover();
      await expect(page.getByTestId("bar-tooltip-db")).toBeVisible();
      expect(await axeViolations(page, { themeOnly }), suffix).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      const name = `${who.split(" ")[1]}-${suffix}`;
      await lookAt(page.getByTestId("component-db"), `status-maintenance-${name}`);
      await lookAt(page, `status-maintenance-page-${name}`, { fullPage: true });
    });
  });
}
