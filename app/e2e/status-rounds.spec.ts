import { expect, test } from "@playwright/test";

// /apotheosis asks in rounds: every 30 s the spec's two checks (/health, /db-health) and one status
// request, the 90-day history downloaded once and then only revalidated or sent incrementally. The
// page clock moves time; the requests are counted as the browser sends them.

const counted = /^\/(health|db-health|api\/status.*)$/;

test("open for 65 s, the page makes at most 10 requests to the checks and the status API", async ({
  page,
}) => {
  // Reduced motion: the hypercube draws one still frame instead of following the fake clock.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.clock.install();
  const sent: string[] = [];
  let answered = 0;
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (counted.test(path)) sent.push(path);
  });
  // Responses, not finished requests: Chromium reports no "finished" for a 304.
  page.on("response", (response) => {
    if (counted.test(new URL(response.url()).pathname)) answered += 1;
  });
  await page.goto("/apotheosis");
  await expect(page.getByTestId("bars-db").getByRole("img")).toHaveCount(90);
  await expect.poll(() => answered).toBe(3);
  for (const round of [2, 3]) {
    await page.clock.runFor(30_000);
    await expect.poll(() => answered).toBe(3 * round);
  }
  await page.clock.runFor(5_000);
  // Time is the subject here: anything the last step started reaches the network before counting.
  await page.waitForTimeout(500);
  expect(sent.length, sent.join("\n")).toBeLessThanOrEqual(10);
  expect(sent.filter((path) => path === "/api/status/page")).toHaveLength(3);
  expect(sent.filter((path) => path === "/health")).toHaveLength(3);
  expect(sent.filter((path) => path === "/db-health")).toHaveLength(3);
});

test("the 90-day history is downloaded once: later rounds are 304s or increments", async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.clock.install();
  const bodies: number[] = [];
  page.on("response", async (response) => {
    if (new URL(response.url()).pathname !== "/api/status/page") return;
    const text = response.status() === 304 ? "" : await response.text();
    bodies.push(text.length);
  });
  await page.goto("/apotheosis");
  await expect.poll(() => bodies.length).toBe(1);
  await page.clock.runFor(30_000);
  await expect.poll(() => bodies.length).toBe(2);
  await page.clock.runFor(30_000);
  await expect.poll(() => bodies.length).toBe(3);
  const [full = 0, ...later] = bodies;
  // A full page holds 2 components x (90 + 96) points; an increment only a few buckets of each.
  for (const size of later) expect(size).toBeLessThan(full / 4);
});

test("with no queue URL the queue reads 'Unknown' and is never asked", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/apotheosis");
  const queue = page.getByTestId("component-queue");
  await expect(page.getByTestId("component-db")).toContainText("Healthy");
  await expect(queue.locator("[data-health]")).toHaveText("Unknown");
  await expect(queue.locator("[data-health]")).toHaveAttribute("data-health", "unknown");
});
