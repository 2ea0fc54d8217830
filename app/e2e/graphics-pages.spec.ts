import { type Browser, type CDPSession, expect, type Page, test } from "@playwright/test";
import { canvasPicture, twoFrames } from "./checks";

// The decorative widgets on the pages that carry them (spec 2.9, docs/quality.md "Graphics" and
// "Layout shift"), at a width where they are shown (>= 900 px). graphics.spec.ts tests the widgets
// on the harness page; this spec tests them where visitors meet them, served by the real server.

// The widgets' motion is what this spec tests (the config asks for reduced motion by default).
test.use({ reducedMotion: "no-preference" });

const WIDE = { width: 1280, height: 800 };

const placements = [
  { path: "/", scene: "icosahedron", size: 250, ready: "Apotheosis" },
  { path: "/apotheosis", scene: "hypercube", size: 220, ready: "Apotheosis status" },
  { path: "/telekinesis", scene: "molecule", size: 200, ready: "Telekinesis" },
  { path: "/mg/overview", scene: "helix", size: 200, ready: "Deploy into your own AWS account" },
] as const;

type Placement = (typeof placements)[number];

/** The shader source starts with this line: a chunk that has it carries the graphics code. */
const GRAPHICS_CODE_MARK = "#version 300 es";

const widget = (page: Page) => page.locator(".graphics-widget");
const canvas = (page: Page) => widget(page).locator("canvas");

async function frames(page: Page): Promise<number> {
  return Number(await canvas(page).getAttribute("data-frames"));
}

/** Opens the page and waits until its widget has drawn with WebGL. */
async function open(page: Page, place: Placement) {
  await page.goto(place.path);
  // Generous: the machines these run on are shared, and a loaded one can take seconds to paint.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(place.ready, {
    timeout: 15_000,
  });
  await expect(widget(page)).toHaveCount(1);
  await expect(widget(page)).toHaveAttribute("data-scene", place.scene);
  await expect(widget(page)).toHaveAttribute("data-graphics", "webgl", { timeout: 10_000 });
  await expect(canvas(page)).toHaveAttribute("data-frames", /^[1-9]/);
}

async function framesPass(page: Page, count: number) {
  const start = await frames(page);
  await expect
    .poll(() => frames(page), { timeout: 5_000, message: `${count} more frames` })
    .toBeGreaterThanOrEqual(start + count);
}

/** Records, from the first byte of the document: every layout shift, and the widget's box as it is
 * when it first appears (before any graphics code can have run). */
function watchLayout(page: Page) {
  return page.addInitScript(() => {
    type Box = { width: number; height: number; graphics: string | null };
    const log = { first: null as Box | null, shifts: [] as { value: number; sources: string[] }[] };
    (window as unknown as { __layout: typeof log }).__layout = log;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        sources?: { node?: Node | null }[];
      })[]) {
        log.shifts.push({
          value: entry.value,
          sources: (entry.sources ?? []).map((s) => {
            const node = s.node as Element | null | undefined;
            const box = document.querySelector(".graphics-widget");
            if (node && box?.contains(node)) return "the widget";
            if (node && box?.parentElement?.contains(node)) return "beside the widget";
            return `${node?.nodeName ?? "?"}.${node instanceof Element ? node.className : ""}`;
          }),
        });
      }
    }).observe({ type: "layout-shift", buffered: true });
    const record = () => {
      if (log.first) return;
      const box = document.querySelector<HTMLElement>(".graphics-widget");
      if (!box) return;
      const rect = box.getBoundingClientRect();
      log.first = {
        width: rect.width,
        height: rect.height,
        graphics: box.dataset.graphics ?? null,
      };
      observer.disconnect();
    };
    const observer = new MutationObserver(record);
    observer.observe(document, { childList: true, subtree: true });
  });
}

async function wideContext(browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}) {
  return browser.newContext({ viewport: WIDE, ...options });
}

for (const place of placements) {
  test.describe(`the ${place.scene} on ${place.path}`, () => {
    test.use({ viewport: WIDE });

    test("draws, hides from assistive technology, keeps its box, loads after the page, and pauses while the tab is hidden", async ({
      page,
      request,
    }) => {
      await watchLayout(page);
      await open(page, place);
      await framesPass(page, 3);

      // Drawn: a good number of lit pixels, and hidden from assistive technology.
      const drawn = await canvasPicture(canvas(page));
      expect(drawn.lit, "lit pixels").toBeGreaterThan(300);
      await expect(widget(page)).toHaveAttribute("aria-hidden", "true");
      await expect(widget(page)).toBeVisible();

      // The box was reserved at its final size before the graphics code ran: no layout shift.
      const layout = await page.evaluate(
        () =>
          (
            window as unknown as {
              __layout: {
                first: { width: number; height: number; graphics: string | null } | null;
                shifts: { value: number; sources: string[] }[];
              };
            }
          ).__layout,
      );
      expect(layout.first, "the box was seen as it first appeared").not.toBeNull();
      expect(layout.first?.graphics, "first seen before the renderer ran").toBeNull();
      const now = await widget(page).boundingBox();
      expect(now?.width).toBe(place.size);
      expect(now?.height).toBe(place.size);
      expect({ width: layout.first?.width, height: layout.first?.height }).toEqual({
        width: place.size,
        height: place.size,
      });
      const canvasBox = await canvas(page).boundingBox();
      expect({ width: canvasBox?.width, height: canvasBox?.height }).toEqual({
        width: place.size,
        height: place.size,
      });
      // Nothing in the widget's row moved: neither the widget nor the text beside it. (Shifts
      // elsewhere on the page are not the widget's doing; the page sweep checks the page.)
      const nearWidget = layout.shifts.filter((shift) =>
        shift.sources.some((source) => source === "the widget" || source === "beside the widget"),
      );
      expect(nearWidget, "layout shifts in the widget's row").toEqual([]);

      // Its code is not in the first-load JS: every script fetched before the load event is free
      // of the graphics code, and the chunk that has it was requested after the load event.
      const timing = await page.evaluate(() => {
        const navigation = performance.getEntriesByType(
          "navigation",
        )[0] as PerformanceNavigationTiming;
        return {
          loadEnd: navigation.loadEventEnd,
          scripts: performance
            .getEntriesByType("resource")
            .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
            .map((entry) => ({ url: entry.name, start: entry.startTime })),
        };
      });
      expect(timing.loadEnd).toBeGreaterThan(0);
      const withGraphics: { url: string; start: number }[] = [];
      for (const script of timing.scripts) {
        const body = await (await request.get(script.url)).text();
        if (body.includes(GRAPHICS_CODE_MARK)) withGraphics.push(script);
      }
      expect(withGraphics.length, "a fetched chunk carries the graphics code").toBeGreaterThan(0);
      for (const script of withGraphics) {
        expect(script.start, `${script.url} requested after load`).toBeGreaterThanOrEqual(
          timing.loadEnd,
        );
      }
      const html = await (await request.get(place.path)).text();
      for (const script of withGraphics) {
        expect(html, "not preloaded by the page").not.toContain(new URL(script.url).pathname);
      }

      // The same load: it stops while the tab is hidden and resumes when it is visible again.
      await canvas(page).scrollIntoViewIfNeeded();
      await framesPass(page, 5);

      // Headless Chromium keeps every tab "visible" (another tab or a minimised window does not
      // change document.visibilityState), so the page is told it is hidden the way a browser tells
      // it: visibilityState/hidden read "hidden" and a visibilitychange event fires. The browser
      // keeps producing animation frames meanwhile, so only the widget's own pause can stop them.
      // The widget cancels its frame request in the visibilitychange handler: parked once the
      // frame after the event has passed.
      await setHidden(page, true);
      await twoFrames(page);
      const parked = await frames(page);
      const parkedPicture = await canvasPicture(canvas(page));
      // Time is the subject here: no frame is drawn for a while that the tab is hidden.
      await page.waitForTimeout(700);
      expect(await frames(page), "no frames while hidden").toBe(parked);
      expect((await canvasPicture(canvas(page))).image, "the picture stands still").toBe(
        parkedPicture.image,
      );
      // The browser itself was still animating: requestAnimationFrame kept firing.
      expect(await rafTicks(page, 500)).toBeGreaterThan(1);

      await setHidden(page, false);
      await framesPass(page, 5);
      expect((await canvasPicture(canvas(page))).image, "moving again").not.toBe(
        parkedPicture.image,
      );
    });

    test("a touch drag turns it, and the page does not scroll", async ({ browser }) => {
      // Reduced motion: no auto-rotation, so only the drag can change the picture.
      const context = await wideContext(browser, { hasTouch: true, reducedMotion: "reduce" });
      const page = await context.newPage();
      try {
        await open(page, place);
        await canvas(page).scrollIntoViewIfNeeded();
        const still = await canvasPicture(canvas(page));
        const stillFrames = await frames(page);
        // Time is the subject here: the picture stays as it is for a while without a drag.
        await page.waitForTimeout(300);
        expect((await canvasPicture(canvas(page))).image, "still without a drag").toBe(still.image);

        const area = await canvas(page).boundingBox();
        if (!area) throw new Error("no canvas box");
        const scrollBefore = await page.evaluate(() => window.scrollY);
        const cdp = await context.newCDPSession(page);
        // Up and to the side: with the browser's default touch handling this would scroll the page down.
        await touchDrag(cdp, area.x + area.width / 2, area.y + area.height / 2, 40, -70);

        const turned = await canvasPicture(canvas(page));
        expect(turned.image, "the picture turned").not.toBe(still.image);
        expect(turned.lit).toBeGreaterThan(300);
        expect(await frames(page), "redrawn by the drag").toBeGreaterThan(stillFrames);
        expect(await page.evaluate(() => window.scrollY), "no scroll").toBe(scrollBefore);
      } finally {
        await context.close();
      }
    });
  });
}

// Below 900 px the widgets are left out (display: none): their renderer and the graphics wasm must
// then never be fetched, and a page that runs machines fetches the machines' wasm once (it is
// preloaded beside the page's chunk, and the loader must be answered from that preload).
for (const place of placements) {
  test(`at 412 px ${place.path} fetches no graphics code and the machines' wasm at most once`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    try {
      const urls: string[] = [];
      const graphicsChunks: string[] = [];
      page.on("response", async (response) => {
        const url = response.url();
        urls.push(url);
        if (url.endsWith(".js")) {
          const body = await response.text().catch(() => "");
          if (body.includes(GRAPHICS_CODE_MARK)) graphicsChunks.push(url);
        }
      });
      await page.goto(place.path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(place.ready, {
        timeout: 15_000,
      });
      await expect(widget(page)).toBeHidden();
      await page.waitForLoadState("networkidle");
      // Time is the subject here: nothing is fetched in the half second after the network went idle.
      await page.waitForTimeout(500);
      expect(graphicsChunks, "no renderer chunk").toEqual([]);
      expect(urls.filter((url) => /mg_core_graphics(_simd)?_bg/.test(url))).toEqual([]);
      expect(urls.filter((url) => /mg_core_bg-[\w-]+\.wasm$/.test(url)).length).toBeLessThanOrEqual(
        1,
      );
    } finally {
      await context.close();
    }
  });
}

/** A one-finger drag by (dx, dy) CSS pixels, as touch input from the device. */
async function touchDrag(cdp: CDPSession, x: number, y: number, dx: number, dy: number) {
  const steps = 6;
  await cdp.send("Input.dispatchTouchEvent", {
    type: "touchStart",
    touchPoints: [{ x, y, id: 1 }],
  });
  for (let i = 1; i <= steps; i += 1) {
    await cdp.send("Input.dispatchTouchEvent", {
      type: "touchMove",
      touchPoints: [{ x: x + (dx * i) / steps, y: y + (dy * i) / steps, id: 1 }],
    });
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

/** Makes the document read as hidden (or visible again) and fires visibilitychange. */
async function setHidden(page: Page, hidden: boolean) {
  await page.evaluate((value) => {
    if (value) {
      Object.defineProperty(document, "visibilityState", {
        configurable: true,
        get: () => "hidden",
      });
      Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    } else {
      // Back to the browser's own answers (the getters on Document.prototype).
      delete (document as { visibilityState?: unknown }).visibilityState;
      delete (document as { hidden?: unknown }).hidden;
    }
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

/** How many animation frames the browser ran in `ms` milliseconds. */
function rafTicks(page: Page, ms: number): Promise<number> {
  return page.evaluate(
    (duration) =>
      new Promise<number>((resolve) => {
        let ticks = 0;
        const end = performance.now() + duration;
        const tick = () => {
          ticks += 1;
          if (performance.now() < end) requestAnimationFrame(tick);
          else resolve(ticks);
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );
}
