import { expect, type Page, test } from "@playwright/test";
import { missingPath, prerenderedPaths } from "./prerendered";

// Every public page arrives server-rendered and the browser hydrates it. Hydration must
// match the HTML exactly (React reports any difference as an error: #418 text, #419-#425, "hydration"
// / "did not match" in development) and keep the server's DOM nodes (a mismatch makes React throw
// the HTML away and render anew, which these checks see as replaced nodes).

const HYDRATION_PROBLEM =
  /hydrat|did not match|server rendered|Minified React error #(418|419|420|421|422|423|425)\b/i;

type Probe = { root: string; kept: boolean[]; hydrated: boolean; docsTextKept: boolean };

/** Before any script runs, remembers the server-rendered nodes to find again after hydration. */
async function rememberServerNodes(page: Page) {
  await page.addInitScript(() => {
    // A docs page's prose, CLI reference and contents, which hydration adopts from the HTML.
    const docsText = () =>
      [...document.querySelectorAll("#root .docs-prose, #root .docs-toc")]
        .map((element) => element.textContent ?? "")
        .join("\n");
    (window as unknown as { __docsText: typeof docsText }).__docsText = docsText;
    document.addEventListener("readystatechange", () => {
      if (document.readyState !== "interactive") return;
      const root = document.getElementById("root");
      const pick = ["#root > header", "#root main", "#root main h1", "#root footer"];
      (window as unknown as { __server: unknown }).__server = {
        html: root?.innerHTML.length ?? 0,
        docsText: docsText(),
        nodes: pick.map((selector) => document.querySelector(selector)),
      };
    });
  });
}

async function probe(page: Page): Promise<Probe> {
  return page.evaluate(() => {
    const saved = (
      window as unknown as {
        __server: { html: number; docsText: string; nodes: (Element | null)[] };
      }
    ).__server;
    const docsText = (window as unknown as { __docsText: () => string }).__docsText;
    const h1 = document.querySelector("#root main h1");
    return {
      root: saved.html > 0 ? "server-rendered" : "empty",
      kept: saved.nodes.map((node) => node?.isConnected === true),
      hydrated: h1 !== null && Object.keys(h1).some((key) => key.startsWith("__reactFiber")),
      docsTextKept: docsText() === saved.docsText,
    };
  });
}

/** The page's hydration messages and errors, collected from now on. */
function hydrationProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (HYDRATION_PROBLEM.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

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

for (const path of [...prerenderedPaths, missingPath]) {
  test(`${path} hydrates the server's HTML without a mismatch and keeps its nodes`, async ({
    page,
  }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (["error", "warning"].includes(message.type()) && HYDRATION_PROBLEM.test(message.text())) {
        problems.push(`${message.type()}: ${message.text()}`);
      }
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    await rememberServerNodes(page);
    const response = await page.goto(path);
    expect(response?.status()).toBe(path === missingPath ? 404 : 200);
    // The hydrated h1 is React's (it carries its fiber) and is the very node the server sent.
    await expect.poll(async () => (await probe(page)).hydrated, { timeout: 10_000 }).toBe(true);
    await page.waitForLoadState("networkidle");
    const result = await probe(page);
    expect(result.root).toBe("server-rendered");
    expect(result.kept, "header, main, h1 and footer are the server's nodes").toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(result.docsTextKept, "the docs text is the server's, all of it").toBe(true);
    expect(problems).toEqual([]);
  });
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

test("the notes for visitors without JavaScript stay out of the page when scripts run", async ({
  page,
}) => {
  await rememberServerNodes(page);
  for (const path of ["/", "/apotheosis", "/telekinesis"]) {
    await page.goto(path);
    await expect.poll(async () => (await probe(page)).hydrated, { timeout: 10_000 }).toBe(true);
    // With scripts on, a <noscript>'s content is inert text: no .needs-script element, nothing shown.
    await expect(page.locator(".needs-script")).toHaveCount(0);
    await expect(page.getByText(/needs JavaScript/)).toHaveCount(0);
    expect(await page.locator("#root noscript").count(), path).toBeGreaterThan(0);
  }
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
