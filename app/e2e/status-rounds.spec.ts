import { expect, type Page, test } from "@playwright/test";

// /apotheosis asks in rounds: every 30 s the spec's two checks (/health, /db-health) and one status
// request, the 90-day history downloaded once and then only revalidated or sent incrementally. The
// page clock moves time. These run on the open-mode server (playwright.config.ts): no operator can
// post there, and a post would rightly make the page ask again at once, a round no clock moved.
//
// The requests are counted in the page itself, where its one `fetch` is called, and so is each
// answer once the page has read it. The browser receiving an answer is not the page having read it:
// moving the clock on between the two (a loaded machine delays the page's turn) started the next
// round before the machine had the answer's entity tag, and that round asked for the whole history
// again. So each round waits until the page has read its three answers, and a count taken after the
// clock moved holds every request the timers it fired made, with no wait.

const counted = /^\/(health|db-health|api\/status.*)$/;

type Rounds = { sent: string[]; read: number };

/** Installs the page clock (under reduced motion: the hypercube draws one still frame instead of
 * following it) and the page's own count of the requests above, then opens /apotheosis. */
async function openCounted(page: Page) {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.clock.install();
  await page.addInitScript((source) => {
    const counted = new RegExp(source);
    const rounds: Rounds = { sent: [], read: 0 };
    (window as unknown as { rounds: Rounds }).rounds = rounds;
    const fetch = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const path = new URL(input instanceof Request ? input.url : String(input), location.href)
        .pathname;
      const answer = fetch(input, init);
      if (!counted.test(path)) return answer;
      rounds.sent.push(path);
      // Registered before the page's own reading, so the page has read the answer (and fed it to
      // its machine, in the same turn) by the time a test sees the count.
      const read = () => {
        rounds.read += 1;
      };
      void answer.then((response) => {
        if (response.status === 304) return read();
        const text = response.text.bind(response);
        response.text = () => {
          const body = text();
          void body.then(read, read);
          return body;
        };
      }, read);
      return answer;
    };
  }, counted.source);
  await page.goto("/apotheosis");
}

const rounds = (page: Page) =>
  page.evaluate(() => (window as unknown as { rounds: Rounds }).rounds);

/** Waits until the page has read the answers of `round` rounds (three requests each). */
const roundsRead = (page: Page, round: number) =>
  expect.poll(async () => (await rounds(page)).read).toBe(3 * round);

test("open for 65 s, the page makes at most 10 requests to the checks and the status API; with no queue URL the queue reads 'Unknown' and is never asked", async ({
  page,
}) => {
  await openCounted(page);
  await expect(page.getByTestId("bars-db").getByRole("img")).toHaveCount(90);
  const queue = page.getByTestId("component-queue");
  await expect(page.getByTestId("component-db")).toContainText("Healthy");
  await expect(queue.locator("[data-health]")).toHaveText("Unknown");
  await expect(queue.locator("[data-health]")).toHaveAttribute("data-health", "unknown");
  await roundsRead(page, 1);
  for (const round of [2, 3]) {
    await page.clock.runFor(30_000);
    await roundsRead(page, round);
  }
  await page.clock.runFor(5_000);
  const { sent } = await rounds(page);
  expect(sent.length, sent.join("\n")).toBeLessThanOrEqual(10);
  expect(sent.filter((path) => path === "/api/status/page")).toHaveLength(3);
  expect(sent.filter((path) => path === "/health")).toHaveLength(3);
  expect(sent.filter((path) => path === "/db-health")).toHaveLength(3);
});

test("the 90-day history is downloaded once: later rounds are 304s or increments", async ({
  page,
}) => {
  const bodies: number[] = [];
  page.on("response", async (response) => {
    if (new URL(response.url()).pathname !== "/api/status/page") return;
    const text = response.status() === 304 ? "" : await response.text();
    bodies.push(text.length);
  });
  await openCounted(page);
  await roundsRead(page, 1);
  for (const round of [2, 3]) {
    await page.clock.runFor(30_000);
    await roundsRead(page, round);
  }
  await expect.poll(() => bodies.length).toBe(3);
  const [full = 0, ...later] = bodies;
  // A full page holds 2 components x (90 + 96) points; an increment only a few buckets of each.
  for (const size of later) expect(size).toBeLessThan(full / 4);
});
