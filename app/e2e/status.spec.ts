import { expect, test } from "@playwright/test";

// /apotheosis against the real server; /health and /db-health are intercepted (the network boundary)
// only where a test needs a failing answer.

test("shows API, database and queue health with the server's last check and its history", async ({
  page,
}) => {
  await page.goto("/apotheosis");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apotheosis status");
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    "content",
    /API, database and task queue/,
  );
  const api = page.getByTestId("component-api");
  const db = page.getByTestId("component-db");
  await expect(api).toContainText("Healthy");
  await expect(db).toContainText("Healthy");
  // The e2e servers configure no queue: nothing is checked, and the card does not claim to be checking.
  await expect(page.getByTestId("component-queue")).toContainText("Not applicable");
  await expect(page.getByTestId("component-queue")).not.toContainText("Checking");
  await expect(page.getByTestId("latency-api")).toContainText(/p50 \d+\.\d+ ms/);
  await expect(page.getByTestId("last-check-db")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
  await expect(api.getByTestId("bars-api").getByRole("img")).toHaveCount(90);
});

test("links to the raw health endpoints", async ({ page }) => {
  await page.goto("/apotheosis");
  for (const path of ["/health", "/api/health", "/db-health"]) {
    await expect(page.getByRole("link", { name: path, exact: true })).toHaveAttribute("href", path);
  }
});

test("checks every 30 s: the live state follows /db-health, the history is asked again", async ({
  page,
}) => {
  // The fake clock also drives requestAnimationFrame: each 30 s runFor would make the page's hypercube
  // widget draw about 1,900 WebGL frames in software GL, which on a loaded machine outlasts the test's
  // 30 s. Under reduced motion the widget draws one still frame and the polls are all that run.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.clock.install();
  let status = 200;
  await page.route("/db-health", (route) =>
    route.fulfill({ status, contentType: "application/json", body: "{}" }),
  );
  // Answers, not requests: each poll arms its next call once answered, so the clock is only moved on
  // when every call of a round has been answered (a late answer under load would otherwise arm its
  // 30 s timer after the clock had moved, and the next round would not come within the test).
  let summaries = 0;
  let histories = 0;
  let dbChecks = 0;
  page.on("requestfinished", (request) => {
    const path = new URL(request.url()).pathname;
    if (path === "/api/status") summaries += 1;
    if (path === "/api/status/history") histories += 1;
    if (path === "/db-health") dbChecks += 1;
  });
  await page.goto("/apotheosis");
  const db = page.getByTestId("component-db");
  await expect(db).toContainText("Healthy");
  await expect(db.getByTestId("bars-db").getByRole("img")).toHaveCount(90);
  await expect.poll(() => summaries).toBe(1);
  // Two series (90 days and 24 h) for each of the two checked components.
  await expect.poll(() => histories).toBe(4);
  await expect.poll(() => dbChecks).toBe(1);
  status = 503;
  await page.clock.runFor(31_000);
  await expect(db).toContainText("Unhealthy");
  await expect.poll(() => summaries).toBe(2);
  await expect.poll(() => histories).toBe(8);
  await expect.poll(() => dbChecks).toBe(2);

  status = 200;
  await page.clock.runFor(31_000);
  await expect(db).toContainText("Healthy");
  await expect.poll(() => summaries).toBe(3);
  // The server's history is untouched by the browser's failed check: its checks are its own.
  await expect(db.getByTestId("bars-db").getByRole("img").last()).toHaveAttribute(
    "aria-label",
    /100% uptime/,
  );
});
