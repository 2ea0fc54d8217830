// Checks several specs make the same way: axe against WCAG 2.2 AA, horizontal overflow, a canvas's
// pixels, and the screenshots kept to look at.
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** axe's violations (WCAG 2.2 AA tags) on the page, or only inside `include`: id and nodes each. */
export async function axeViolations(
  page: Page,
  include?: string,
): Promise<{ id: string; nodes: string[] }[]> {
  const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  const results = await (include ? builder.include(include) : builder).analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    nodes: violation.nodes.map((node) => node.target.join(" ")),
  }));
}

/** How many CSS pixels the page is wider than the viewport (0 or less: no horizontal scroll). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/** A canvas's pixels: how many are lit, and a fingerprint to compare frames. */
export function canvasPicture(canvas: Locator): Promise<{ lit: number; image: string }> {
  return canvas.evaluate((element) => {
    const source = element as HTMLCanvasElement;
    const copy = document.createElement("canvas");
    copy.width = source.width;
    copy.height = source.height;
    const context = copy.getContext("2d");
    if (!context) throw new Error("no 2d context");
    context.drawImage(source, 0, 0);
    const { data } = context.getImageData(0, 0, copy.width, copy.height);
    let lit = 0;
    for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 24) lit += 1;
    return { lit, image: source.toDataURL() };
  });
}

/**
 * Waits until React has hydrated the prerendered page (its first h1 carries React's fiber): a click
 * on server-rendered HTML before that finds no handler yet.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const h1 = document.querySelector("#root h1");
    return h1 !== null && Object.keys(h1).some((key) => key.startsWith("__reactFiber"));
  });
}

/**
 * Saves a screenshot to look at, app/screenshots/<name>.png, when E2E_SCREENSHOTS is set (it asserts
 * nothing; rendering and encoding a full page costs a second of CPU, so plain runs skip it).
 */
export async function lookAt(
  target: Page | Locator,
  name: string,
  options: { fullPage?: boolean; style?: string } = {},
): Promise<void> {
  if (!process.env.E2E_SCREENSHOTS) return;
  const path = `screenshots/${name}.png`;
  if ("goto" in target) await target.screenshot({ path, ...options });
  else await target.screenshot({ path, style: options.style });
}

/**
 * Screenshots (lookAt) of each target at 1280 and 375 px in both themes, the theme switched in place;
 * each named `<name>-<width>-<theme>`. The viewport is left at 375 px.
 */
export async function lookAtWidthsAndThemes(
  page: Page,
  targets: readonly (readonly [Page | Locator, string])[],
): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    for (const theme of ["cosmic", "void"]) {
      await page.evaluate((t) => {
        document.documentElement.dataset.theme = t;
      }, theme);
      for (const [target, name] of targets) await lookAt(target, `${name}-${width}-${theme}`);
    }
  }
}
