import { expect, type Page, test } from "@playwright/test";
import { axeViolations, eachThemeAndWidth, horizontalOverflow, lookAt } from "./checks";

// Honest cards: the default apotheosis landing and an ethereal one, each on its own real server
// (playwright.config.ts: the ethereal one is an apotheosis deployment whose flags say ethereal), say one
// thing in their type, flags, text and cards (spec 2.2 and 3). Every other type and flag: which
// prerendered variant the server picks is proven in server/tests/api/prerendered/variants.rs, and what
// the landing shows for it in src/features/landing/landing-page.test.tsx.

const port = Number(process.env.E2E_PORT ?? 4173);
const ethereal = `http://127.0.0.1:${port + 300}`;

interface Expected {
  mode: string;
  origin: string;
  type: string;
  title: string;
  apotheosis: "On" | "Off";
  wisdom: boolean;
  ethereal: boolean;
}

const deployments: Expected[] = [
  {
    mode: "apotheosis",
    origin: `http://127.0.0.1:${port}`,
    type: "apotheosis",
    title: "Apotheosis",
    apotheosis: "On",
    wisdom: true,
    ethereal: false,
  },
  {
    mode: "apotheosis with the ethereal flag",
    origin: ethereal,
    type: "ethereal",
    title: "Ethereal",
    apotheosis: "Off",
    wisdom: false,
    ethereal: true,
  },
];

const fact = (page: Page, name: string) =>
  page
    .getByRole("region", { name: "Deployment Information" })
    .locator(".facts__row", { has: page.getByRole("term").filter({ hasText: name }) })
    .getByRole("definition");

for (const expected of deployments) {
  test(`${expected.mode}: type, flags, text and cards agree`, async ({ page }) => {
    await page.goto(`${expected.origin}/`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(expected.title);
    await expect(page.getByText(`${expected.type} deployment`, { exact: true })).toBeVisible();
    await expect(fact(page, "Type")).toHaveText(expected.type);
    await expect(fact(page, "Apotheosis")).toHaveText(expected.apotheosis);
    await expect(page.getByRole("button", { name: "Wisdom" })).toHaveCount(expected.wisdom ? 1 : 0);

    const database = page.getByTestId("card-database");
    const telekinesis = page.getByTestId("card-telekinesis");
    const server = page.getByTestId("card-server");
    if (expected.ethereal) {
      // Nothing behind the page: the text says so, and so do the cards.
      await expect(page.getByText(/no server or database to look after/)).toBeVisible();
      await expect(database).toHaveAttribute("aria-disabled", "true");
      await expect(database).toContainText("Disabled");
      await expect(telekinesis).toHaveAttribute("aria-disabled", "true");
      await expect(telekinesis.getByRole("link")).toHaveCount(0);
      await expect(server).toContainText("Not applicable");
    } else {
      await expect(database).not.toHaveAttribute("aria-disabled", "true");
      // The card names what /db-health reports (these servers run on SQLite).
      await expect(database).toContainText("Healthy");
      await expect(database).toContainText("SQLite behind /db-health.");
      await expect(database).not.toContainText("PostgreSQL");
      await expect(telekinesis.getByRole("link", { name: "Open Telekinesis" })).toBeVisible();
      await expect(server).toContainText("Healthy");
    }
  });
}

test("the database card names PostgreSQL when /db-health reports it", async ({ page }) => {
  await page.route("**/db-health", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({ status: "ok", database: "postgres", latency_ms: 1 }),
    }),
  );
  await page.goto(`http://127.0.0.1:${port}/`);
  await expect(page.getByTestId("card-database")).toContainText("PostgreSQL behind /db-health.");
});

test.describe("the ethereal landing looks finished", () => {
  // One load; the width and the theme change in place.
  test("both themes at 1280 and 375 px: 0 axe violations, no sideways scroll", async ({ page }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${ethereal}/`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ethereal");
    await expect(page.getByTestId("card-server")).toContainText("Not applicable");
    const widths = [
      { width: 1280, height: 900 },
      { width: 375, height: 900 },
    ];
    await eachThemeAndWidth(page, widths, async ({ suffix, themeOnly }) => {
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      // Every card holds its own content ('Not applicable' once ran out of the Server card).
      const spills = await page.locator(".status-card").evaluateAll((cards) =>
        cards.flatMap((card) => {
          const box = card.getBoundingClientRect();
          return [...card.querySelectorAll("*")]
            .map((child) => child.getBoundingClientRect())
            .filter((inner) => inner.right > box.right + 0.5 || inner.left < box.left - 0.5)
            .map(() => card.getAttribute("data-testid"));
        }),
      );
      expect(spills).toEqual([]);
      expect(await axeViolations(page, { themeOnly }), suffix).toEqual([]);
      await lookAt(page, `landing-ethereal-${suffix}`, { fullPage: true });
    });
  });
});

test("an ethereal deployment's status page asks no status history and says why", async ({
  page,
}) => {
  const asked: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/status")) asked.push(request.url());
  });
  await page.goto(`${ethereal}/apotheosis`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apotheosis status");
  await expect(page.getByTestId("component-api")).toContainText(
    "Ethereal deployments have no API, so nothing is checked.",
  );
  await expect(page.getByTestId("component-db")).toContainText(
    "Ethereal deployments have no database",
  );
  await expect(page.getByTestId("bars-api")).toHaveCount(0);
  await expect(page.getByTestId("incidents")).toHaveCount(0);
  // The requests the page makes on load are done (its next polls are 30 s away).
  await page.waitForLoadState("networkidle");
  expect(asked).toEqual([]);
});
