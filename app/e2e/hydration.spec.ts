import { expect, type Page, test } from "@playwright/test";
import { hydrationProblems, probe, rememberServerNodes } from "./checks";
import { newAccount } from "./emulator-http";
import { signIn } from "./sign-in";

// Hydration beyond the page sweep (pages.spec.ts checks that every public page hydrates its server
// HTML without a mismatch and keeps its nodes): a page opened on a hash, the void theme, clicks made
// before hydration, and the order in which the loader starts the scripts.

/** Holds every script request until the returned function is called. */
async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const scriptsMayLoad = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\.js(\?|$)/, async (route) => {
    await scriptsMayLoad;
    await route.continue();
  });
  return release;
}

test("a CLI page opened on a hash hydrates without a mismatch and lands on its heading", async ({
  page,
}) => {
  const problems = hydrationProblems(page);
  await rememberServerNodes(page);
  await page.goto("/mg/cli/dmt#command-builder");
  await expect.poll(async () => (await probe(page)).hydrated, { timeout: 10_000 }).toBe(true);
  await expect(page.getByRole("heading", { name: "Command builder" })).toBeInViewport();
  await page.waitForLoadState("networkidle");
  expect((await probe(page)).kept).toEqual([true, true, true, true]);
  expect(problems).toEqual([]);
});

test("hydration keeps the void theme's toggle and text without a swap", async ({ page }) => {
  const problems = hydrationProblems(page);
  await page.addInitScript(() => window.localStorage.setItem("theme", "void"));
  await page.goto("/mg/overview");
  await expect(page.getByRole("button", { name: "Switch to the cosmic theme" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(problems).toEqual([]);
});

test("a button clicked before hydration is acted on once React has taken the page over", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  // Hold every script until the click has happened: the page is the server's HTML alone.
  const release = await holdScripts(page);
  await rememberServerNodes(page);
  await page.goto("/mg/overview", { waitUntil: "domcontentloaded" });
  const menu = page.getByRole("button", { name: "Docs menu" });
  await menu.click();
  expect((await probe(page)).hydrated).toBe(false);
  await expect(menu).toHaveAttribute("aria-expanded", "false");

  release();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("navigation", { name: "Docs sections" })).toBeVisible();
  expect((await probe(page)).kept).toEqual([true, true, true, true]);
  // Once hydrated, clicks are React's alone: the next one closes the menu (none is held back).
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
});

test("at most 16 clicks are held before hydration: a 17th is dropped, the 16 are replayed", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const release = await holdScripts(page);
  // Counts every click on the Docs menu, the visitor's and the replayed ones (a window listener in
  // the capture phase runs before the loader's, which stops a held click there).
  await page.addInitScript(() => {
    const counted = window as unknown as { __menuClicks: number };
    counted.__menuClicks = 0;
    window.addEventListener(
      "click",
      (event) => {
        const target = event.target as Element | null;
        if (target?.closest?.(".docs-menu-button")) counted.__menuClicks += 1;
      },
      true,
    );
  });
  await page.goto("/mg/overview", { waitUntil: "domcontentloaded" });
  const menu = page.getByRole("button", { name: "Docs menu" });
  for (let i = 0; i < 17; i += 1) await menu.click();
  const clicks = () =>
    page.evaluate(() => (window as unknown as { __menuClicks: number }).__menuClicks);
  expect(await clicks()).toBe(17);

  release();
  await expect.poll(clicks).toBe(17 + 16);
  await page.waitForLoadState("networkidle");
  expect(await clicks()).toBe(33);
  // Sixteen toggles leave the menu as it was; seventeen would have opened it.
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("navigation", { name: "Docs sections" })).toBeHidden();
});

test("a prerendered page starts its scripts after first paint, a few per task, the entry last", async ({
  page,
}) => {
  // Each insertion the loader makes into <head>, as one MutationObserver callback sees it: two
  // insertions in one task would arrive in one callback.
  await page.addInitScript(() => {
    const seen: { preloads: string[]; entry: boolean }[][] = [];
    (window as unknown as { __insertions: typeof seen }).__insertions = seen;
    new MutationObserver((records) => {
      const batch = records
        .filter((record) => record.target === document.head)
        .map((record) => {
          const added = [...record.addedNodes].filter(
            (node): node is Element => node instanceof Element,
          );
          return {
            preloads: added
              .filter((node) => node.matches("link[rel=modulepreload]"))
              .map((node) => node.getAttribute("href") ?? ""),
            entry: added.some((node) => node.matches("script[type=module][src]")),
          };
        })
        .filter((insertion) => insertion.preloads.length > 0 || insertion.entry);
      if (batch.length > 0) seen.push(batch);
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto("/apotheosis");
  await page.waitForFunction(() => document.querySelector("script[type=module][src]"));
  const html = await (await page.request.get("/apotheosis")).text();
  const listed = JSON.parse(/var u=(\[[^\]]*\])/.exec(html)?.[1] ?? "[]") as string[];
  expect(listed.length).toBeGreaterThan(4);
  const insertions = await page.evaluate(
    () =>
      (window as unknown as { __insertions: { preloads: string[]; entry: boolean }[][] })
        .__insertions,
  );
  // The loader's insertions only (Vite's own preloads of lazy chunks come later, its own way): one
  // per task, at most four links each, every listed module once, the entry last.
  const loaders = insertions
    .map((batch) =>
      batch
        .map(({ preloads, entry }) => ({
          preloads: preloads.filter((href) => listed.includes(href)),
          entry,
        }))
        .filter((insertion) => insertion.preloads.length > 0 || insertion.entry),
    )
    .filter((batch) => batch.length > 0);
  for (const batch of loaders) expect(batch).toHaveLength(1);
  const flat = loaders.map((batch) => batch[0] as { preloads: string[]; entry: boolean });
  for (const insertion of flat) expect(insertion.preloads.length).toBeLessThanOrEqual(4);
  expect(flat.flatMap((insertion) => insertion.preloads)).toEqual(listed);
  expect(flat.map((insertion) => insertion.entry)).toEqual(
    flat.map((_, i) => i === flat.length - 1),
  );
});

test("signed-in /home arrives as its frame, nothing personal in it, and hydrates it in place", async ({
  page,
}) => {
  const account = newAccount("frame");
  await signIn(page, account);
  const problems = hydrationProblems(page);
  const release = await holdScripts(page);
  await rememberServerNodes(page);
  const response = await page.goto("/home", { waitUntil: "domcontentloaded" });
  const html = (await response?.text()) ?? "";
  // The server's HTML alone: the page's frame, the same for everyone.
  expect(html).not.toContain(account.email);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
  await expect(page.getByRole("heading", { name: "Signed-in devices" })).toBeVisible();
  await expect(page.getByTestId("user-email")).toHaveCount(0);
  expect((await probe(page)).hydrated).toBe(false);

  release();
  await expect(page.getByTestId("user-email")).toHaveText(account.email);
  await expect(page.getByTestId("db-id")).not.toBeEmpty();
  await page.waitForLoadState("networkidle");
  expect((await probe(page)).kept).toEqual([true, true, true, true]);
  expect(problems).toEqual([]);
});
