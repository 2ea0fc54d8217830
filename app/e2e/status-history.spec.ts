import { expect, type Page, test } from "@playwright/test";
import { axeViolations, lookAt } from "./checks";

// /apotheosis with the server's history and the landing cards' 24 h uptime (docs/api.md "Status"),
// against the real server: a fresh database, so the history holds only the checks made since it
// started (today's bar, the other 89 days "no data"). /api/status is intercepted only where a test
// needs an answer the fresh server cannot give (a later round, an outage, no checks).

test.describe.configure({ timeout: 60_000 });

async function openStatus(page: Page) {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/apotheosis");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apotheosis status");
  await expect(page.getByTestId("bars-db").getByRole("img")).toHaveCount(90);
}

test("each checked component has 90 day bars, today's from the server's checks", async ({
  page,
}) => {
  await openStatus(page);
  for (const id of ["api", "db"]) {
    const bars = page.getByTestId(`bars-${id}`).getByRole("img");
    await expect(bars).toHaveCount(90);
    await expect(bars.last()).toHaveAttribute(
      "aria-label",
      /^\d+ \w+ \d{4}: 100% uptime, 0 incidents$/,
    );
    await expect(bars.first()).toHaveAttribute("aria-label", /: no data$/);
    await expect(page.getByTestId(`uptime-${id}`)).toContainText("24 h100%");
  }
  // The queue is not configured on the e2e server: a short card, no bars.
  await expect(page.getByTestId("component-queue")).toContainText(
    "The server checks no Telekinesis queue",
  );
  await expect(page.getByTestId("bars-queue")).toHaveCount(0);
});

test("a bar's tooltip shows its date, uptime and incidents on hover and on keyboard focus", async ({
  page,
}) => {
  await openStatus(page);
  const bars = page.getByTestId("bars-db").getByRole("img");
  const tooltip = page.getByTestId("bar-tooltip-db");
  await expect(tooltip).toHaveCount(0);

  await bars.last().hover();
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toHaveText(/^\d+ \w+ \d{4}100% uptime, 0 incidents$/);
  await page.mouse.move(0, 0);
  await expect(tooltip).toHaveCount(0);

  // Keyboard: Tab reaches the bars in one stop (today), the arrows move between days.
  await page.getByTestId("component-db").getByRole("heading").click();
  let reached = false;
  for (let i = 0; i < 15 && !reached; i += 1) {
    await page.keyboard.press("Tab");
    reached = await bars.last().evaluate((node) => node === document.activeElement);
  }
  expect(reached, "Tab reaches today's bar").toBe(true);
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText("100% uptime, 0 incidents");
  await page.keyboard.press("ArrowLeft");
  await expect(bars.nth(88)).toBeFocused();
  // Yesterday has no data unless this run's server started before midnight (UTC).
  const yesterday = (await bars.nth(88).getAttribute("aria-label")) ?? "";
  await expect(tooltip).toHaveText(
    yesterday.endsWith(": no data") ? /^\d+ \w+ \d{4}no data$/ : /^\d+ \w+ \d{4}100% uptime/,
  );
  await page.keyboard.press("Home");
  await expect(bars.first()).toBeFocused();
  // The tooltip stays inside the card at either end.
  const box = await tooltip.boundingBox();
  const card = await page.getByTestId("component-db").boundingBox();
  expect(box && card && box.x >= card.x && box.x + box.width <= card.x + card.width).toBe(true);
});

test("the charts have text equivalents for screen readers", async ({ page }) => {
  await openStatus(page);
  await expect(page.getByTestId("bars-summary-db")).toHaveText(
    /^Database, last 90 days: 100% uptime \(checks inside maintenance windows left out\), (1 day|2 days) with checks, 0 with incidents, 0 in maintenance, lowest day .+ at 100%\.$/,
  );
  const table = page.getByTestId("latency-table-db");
  await expect(table.locator("caption")).toHaveText(
    "Database latency per 15 minutes over the last 24 hours (UTC)",
  );
  await expect(table.locator("tbody tr").first()).toContainText(/\d\d:\d\d.*ms.*ms/);
  await expect(page.getByRole("figure", { name: /Latency, last 24 h/ }).first()).toBeVisible();
  await expect(page.getByTestId("latency-db")).toContainText(/p50 \d+\.\d+ ms/);
});

test("a server that checks its Telekinesis queue gets the queue's card measured, from its answer", async ({
  page,
}) => {
  // The e2e server has no queue URL (the card above says so); here its answer is made to say it
  // checks one, as a server with TELEKINESIS_QUEUE_URL answers (server/tests/api/
  // status_component_status.rs proves that side): the page follows the answer, not its build.
  await page.route(/\/api\/status\/page/, async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    const db = body.summary.components.find((c: { id: string }) => c.id === "db");
    body.summary.components.push({
      ...structuredClone(db),
      id: "queue",
      name: "Telekinesis queue",
    });
    body.summary.not_configured = [];
    const history = body.history.find((h: { component: string }) => h.component === "db");
    body.history.push({ ...structuredClone(history), component: "queue" });
    await route.fulfill({ response, json: body });
  });
  await openStatus(page);
  await expect(page.getByTestId("bars-queue").getByRole("img")).toHaveCount(90);
  await expect(page.getByTestId("component-queue")).not.toContainText(
    "The server checks no Telekinesis queue",
  );
  await expect(page.getByTestId("uptime-queue")).toContainText("24 h100%");
});

test("new server checks appear without a reload (asked again every 30 s)", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.clock.install();
  let calls = 0;
  await page.route(/\/api\/status\/page/, async (route) => {
    // Without the ETag, so the server answers with the page even when it has not checked again.
    const headers = { ...route.request().headers() };
    delete headers["if-none-match"];
    const response = await route.fetch({ headers });
    const body = await response.json();
    calls += 1;
    if (calls > 1) {
      // A later round: the database failed for a while.
      const db = body.summary.components.find((c: { id: string }) => c.id === "db");
      db.uptime["24h"] = 97.5;
      body.summary.open_incidents = [
        {
          id: "db-1",
          component: "db",
          component_name: "Database",
          started_at: new Date(Date.now() - 120_000).toISOString(),
          ended_at: null,
          first_error: "The database did not answer within 1 s.",
          viewpoints: ["e2e"],
        },
      ];
    }
    await route.fulfill({ response, json: body });
  });
  await page.goto("/apotheosis");
  await expect(page.getByTestId("uptime-db")).toContainText("24 h100%");
  await expect(page.getByTestId("incidents")).toContainText("No incidents in the last 90 days.");
  await page.clock.runFor(31_000);
  await expect(page.getByTestId("uptime-db")).toContainText("24 h97.5%");
  const incidents = page.getByTestId("incidents");
  await expect(incidents).toContainText("Database");
  await expect(incidents).toContainText("Ongoing");
  await expect(incidents).toContainText("The database did not answer within 1 s.");
  expect(calls).toBeGreaterThanOrEqual(2);
});

test("with no checks yet the page says so", async ({ page }) => {
  await page.route(/\/api\/status\/page/, async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    const series = body.history.flatMap((h: { daily: unknown; recent: unknown }) => [
      h.daily,
      h.recent,
    ]);
    for (const point of series.flatMap((s: { points: object[] }) => s.points)) {
      Object.assign(point, {
        checks: 0,
        failures: 0,
        uptime: null,
        latency_p50_ms: null,
        latency_p95_ms: null,
        latency_max_ms: null,
      });
    }
    await route.fulfill({ response, json: body });
  });
  await openStatus(page);
  const db = page.getByTestId("component-db");
  // Under the bars, in the chart's box, and in the chart's hidden table.
  await expect(db.getByText("No checks recorded yet")).toHaveCount(3);
  await expect(db.locator(".history__empty")).toBeVisible();
  await expect(db.locator(".latency__plot")).toHaveText("No checks recorded yet");
  await expect(page.getByTestId("bars-summary-db")).toHaveText(
    "Database: no checks recorded in the last 90 days yet.",
  );
  await expect(page.getByTestId("bars-db").getByRole("img").last()).toHaveAttribute(
    "aria-label",
    /: no data$/,
  );
});

test("when the status API is unreachable the page says so calmly and keeps the live cards", async ({
  page,
}) => {
  await page.route(/\/api\/status/, (route) => route.abort("connectionrefused"));
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/apotheosis");
  const db = page.getByTestId("component-db");
  await expect(db).toContainText("Healthy");
  await expect(db).toContainText(/History unavailable right now \(.+\)\. The live state above/);
  await expect(page.getByTestId("incidents")).toContainText(
    "The incident list is unavailable right now.",
  );
  await expect(page.getByTestId("uptime-db")).toContainText("24 h—");
  expect(await axeViolations(page)).toEqual([]);
  await lookAt(page, "status-history-unreachable", { fullPage: true });
});

test("the landing cards show the server's 24 h uptime beside the state", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/");
  await expect(page.getByTestId("uptime-server")).toHaveText("100% uptime, 24 h");
  await expect(page.getByTestId("uptime-database")).toHaveText("100% uptime, 24 h");
  // Nothing for the frontend, nor for a queue the server does not check.
  await expect(page.getByTestId("uptime-frontend")).toHaveText("");
  await expect(page.getByTestId("uptime-telekinesis")).toHaveText("");
});
