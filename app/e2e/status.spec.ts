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
  // The e2e servers configure no queue: nothing is checked, so its value stays unknown (spec 4), and
  // the card does not claim to be checking.
  await expect(page.getByTestId("component-queue")).toContainText("Unknown");
  await expect(page.getByTestId("component-queue")).not.toContainText("Checking");
  await expect(page.getByTestId("latency-api")).toContainText(/p50 \d+\.\d+ ms/);
  await expect(page.getByTestId("last-check-db")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
  await expect(api.getByTestId("bars-api").getByRole("img")).toHaveCount(90);

  // The live word is prerendered as "Checking" and turns to "Healthy" once drawn: the stated pill on
  // the same line keeps its place (the badge holds the first word's width), in whichever order the
  // two answers arrive.
  await expect(page.getByTestId("stated-api")).toBeVisible();
  const moved = await page.evaluate(() =>
    [...document.querySelectorAll(".component__head")].flatMap((head) => {
      const word = head.querySelector(".health-badge__word");
      const pill = head.querySelector(".component__stated");
      if (!word || !pill) return [];
      const shown = word.textContent;
      const before = pill.getBoundingClientRect().x;
      word.textContent = "Checking";
      const after = pill.getBoundingClientRect().x;
      word.textContent = shown;
      return [after - before];
    }),
  );
  expect(moved.length, "the API and database cards, each with its pill").toBeGreaterThanOrEqual(2);
  expect(moved).toEqual(moved.map(() => 0));
});

test("links to the raw health endpoints", async ({ page }) => {
  await page.goto("/apotheosis");
  for (const path of ["/health", "/api/health", "/db-health"]) {
    await expect(page.getByRole("link", { name: path, exact: true })).toHaveAttribute("href", path);
  }
});

test("checks every 30 s: the live state follows /db-health, the page is revalidated, not refetched", async ({
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
  // Other specs post on this server meanwhile, and a page answer naming other posts makes a round
  // due at once: the posts' digest is held still here, so only the 30 s rounds run.
  await page.route(/\/api\/status\/page/, async (route) => {
    const response = await route.fetch();
    if (response.status() !== 200) return route.fulfill({ response });
    const body = await response.json();
    body.summary.notices_digest = "held";
    return route.fulfill({ response, json: body });
  });
  // Answers, not requests: the clock is only moved on when every call of a round has been answered.
  const pages: { url: URL; ifNoneMatch: string | undefined; status: number }[] = [];
  let dbChecks = 0;
  // Responses, not finished requests: Chromium reports no "finished" for a 304.
  page.on("response", async (response) => {
    const url = new URL(response.url());
    if (url.pathname === "/db-health") dbChecks += 1;
    if (url.pathname !== "/api/status/page") return;
    pages.push({
      url,
      ifNoneMatch: (await response.request().headerValue("if-none-match")) ?? undefined,
      status: response.status(),
    });
  });
  let histories = 0;
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/status/history") histories += 1;
  });
  await page.goto("/apotheosis");
  const db = page.getByTestId("component-db");
  await expect(db).toContainText("Healthy");
  await expect(db.getByTestId("bars-db").getByRole("img")).toHaveCount(90);
  await expect.poll(() => pages.length).toBe(1);
  await expect.poll(() => dbChecks).toBe(1);
  // The first round downloads the whole page, unconditionally.
  expect(pages[0]?.url.search).toBe("");
  expect(pages[0]?.ifNoneMatch).toBeUndefined();
  expect(pages[0]?.status).toBe(200);

  status = 503;
  await page.clock.runFor(31_000);
  await expect(db).toContainText("Unhealthy");
  await expect.poll(() => pages.length).toBe(2);
  await expect.poll(() => dbChecks).toBe(2);
  // Later rounds revalidate with the ETag and ask only for what is newer than the last answer.
  expect(pages[1]?.url.searchParams.get("since")).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(pages[1]?.ifNoneMatch).toMatch(/^"[0-9a-f]+(-gz|-br)?"$/);
  expect([200, 304]).toContain(pages[1]?.status);

  status = 200;
  await page.clock.runFor(31_000);
  await expect(db).toContainText("Healthy");
  await expect.poll(() => pages.length).toBe(3);
  // The server's history is untouched by the browser's failed check: its checks are its own.
  await expect(db.getByTestId("bars-db").getByRole("img").last()).toHaveAttribute(
    "aria-label",
    /100% uptime/,
  );
  expect(histories, "no per-component history requests").toBe(0);
});
