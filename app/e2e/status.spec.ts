import { expect, test } from "@playwright/test";

// /apotheosis against the real server; /health and /db-health are intercepted (the network boundary)
// only where a test needs a failing answer.

test("shows API, database and queue health with the last check, its latency and a chart", async ({
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
  await expect(page.getByTestId("component-queue")).toContainText(/Checking|Healthy|Unhealthy/);
  await expect(page.getByTestId("latency-api")).toHaveText(/^\d+ ms$/);
  await expect(page.getByTestId("last-check-db").locator("time")).toHaveAttribute(
    "datetime",
    /^\d{4}-\d\d-\d\dT/,
  );
  await expect(api.getByRole("img")).toHaveAttribute(
    "aria-label",
    /API check latency over the last 1 checks: from \d+ to \d+ ms, latest \d+ ms; 0 failed\./,
  );
});

test("links to the raw health endpoints", async ({ page }) => {
  await page.goto("/apotheosis");
  for (const path of ["/health", "/api/health", "/db-health"]) {
    await expect(page.getByRole("link", { name: path, exact: true })).toHaveAttribute("href", path);
  }
});

test("records every 30 s check in the chart, failed ones included", async ({ page }) => {
  // The fake clock also drives requestAnimationFrame: each 30 s runFor would make the page's hypercube
  // widget draw about 1,900 WebGL frames in software GL, which on a loaded machine outlasts the test's
  // 30 s. Under reduced motion the widget draws one still frame and the polls are all that run.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.clock.install();
  let status = 200;
  await page.route("/db-health", (route) =>
    route.fulfill({ status, contentType: "application/json", body: "{}" }),
  );
  await page.goto("/apotheosis");
  const db = page.getByTestId("component-db");
  await expect(db).toContainText("Healthy");
  status = 503;
  await page.clock.runFor(31_000);
  await expect(db).toContainText("Unhealthy");
  await expect(db.getByRole("img")).toHaveAttribute("aria-label", /last 2 checks.*1 failed\./);
  await expect(page.getByTestId("component-api").getByRole("img")).toHaveAttribute(
    "aria-label",
    /last 2 checks/,
  );

  // Two more rounds, healthy again: the chart shows the failure among them.
  status = 200;
  // One round at a time: the next poll is armed only once the previous answer is in.
  await page.clock.runFor(30_000);
  await expect(db.getByRole("img")).toHaveAttribute("aria-label", /last 3 checks/);
  await page.clock.runFor(30_000);
  await expect(db.getByRole("img")).toHaveAttribute("aria-label", /last 4 checks.*1 failed\./);
  await expect(db).toContainText("Healthy");
  await page.screenshot({ path: "screenshots/status-history-cosmic-1280.png", fullPage: true });
});
