// Checks several specs make the same way: axe against WCAG 2.2 AA, horizontal overflow, a canvas's
// pixels, and the screenshots kept to look at.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * The rules whose results the theme alone can change, on one DOM at one width: the theme changes
 * colours, and which of the theme toggle's two labels shows (its name, its size and the room around
 * it). The other rules read the DOM and the layout, which a theme switched in place leaves as they were.
 */
const THEME_RULES = [
  "color-contrast",
  "link-in-text-block",
  "button-name",
  "target-size",
  "scrollable-region-focusable",
];

/** What axe looks at: only inside `include`; only the theme's rules when `themeOnly` (the page was
 * checked with every rule in the other theme at this width, the DOM unchanged since). */
export type AxeScope = { include?: string; themeOnly?: boolean };

/** axe's violations (WCAG 2.2 AA tags) on the page, or within `scope`: id and nodes each. */
export async function axeViolations(
  page: Page,
  scope: string | AxeScope = {},
): Promise<{ id: string; nodes: string[] }[]> {
  const { include, themeOnly = false } = typeof scope === "string" ? { include: scope } : scope;
  // A scope that matches nothing would check nothing and pass.
  if (include)
    expect(await page.locator(include).count(), `axe's scope ${include}`).toBeGreaterThan(0);
  const all = new AxeBuilder({ page });
  const builder = themeOnly ? all.withRules(THEME_RULES) : all.withTags(WCAG_TAGS);
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

/**
 * Sets the theme in place (the attribute the stylesheets key on), to check a page's other theme on
 * the same load: colours change, layout does not.
 */
export async function showTheme(page: Page, theme: "cosmic" | "void"): Promise<void> {
  await page.evaluate((value) => {
    document.documentElement.dataset.theme = value;
  }, theme);
}

/**
 * Waits until the page has settled: the network idle (the session check and the first health
 * answers have landed; later polls are 30 s away), the fonts loaded, every visible decorative
 * widget drawn once (or marked as the CSS fallback), and two frames painted after that.
 */
export async function untilSettled(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLElement>(".graphics-widget")]
      .filter((box) => box.checkVisibility())
      .every(
        (box) =>
          box.dataset.graphics === "fallback" ||
          Number(box.querySelector("canvas")?.dataset.frames ?? 0) > 0,
      ),
  );
  await twoFrames(page);
}

/** Resolves once two more frames have been painted: what changed before the call is laid out. */
export async function twoFrames(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      ),
  );
}

/**
 * React's hydration complaints: #418 text, #419-#425, "hydration" / "did not match" in development.
 * A mismatch makes React throw the server's HTML away and render anew.
 */
export const HYDRATION_PROBLEM =
  /hydrat|did not match|server rendered|Minified React error #(418|419|420|421|422|423|425)\b/i;

/** The page's hydration messages (of any level) and uncaught errors, collected from now on. */
export function hydrationProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (HYDRATION_PROBLEM.test(message.text()))
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

export type Probe = { root: string; kept: boolean[]; hydrated: boolean; docsTextKept: boolean };

/** Before any script runs, remembers the server-rendered nodes to find again after hydration. */
export async function rememberServerNodes(page: Page): Promise<void> {
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

/** What became of the nodes rememberServerNodes saw: kept (header, main, h1, footer), hydrated. */
export async function probe(page: Page): Promise<Probe> {
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

export type Shift = { value: number; sources: string[] };

/**
 * From the first byte of the document, records every layout shift without recent input, with the
 * nodes that moved (so a failure says what to reserve room for); read them with layoutShifts.
 */
export async function recordShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Entry = PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources?: {
        node?: Node | null;
        previousRect: DOMRectReadOnly;
        currentRect: DOMRectReadOnly;
      }[];
    };
    const shifts: { value: number; sources: string[] }[] = [];
    const take = (entries: PerformanceEntry[]) => {
      for (const entry of entries as Entry[]) {
        if (entry.hadRecentInput) continue;
        shifts.push({
          value: entry.value,
          sources: (entry.sources ?? []).map(({ node, previousRect: was, currentRect: now }) => {
            if (!(node instanceof Element)) return String(node?.nodeName);
            const parent = node.parentElement;
            return `${node.nodeName.toLowerCase()}.${node.className} in ${parent?.nodeName.toLowerCase()}.${parent?.className} ${was.y}->${now.y} h${was.height}->${now.height}`;
          }),
        });
      }
    };
    const observer = new PerformanceObserver((list) => take(list.getEntries()));
    observer.observe({ type: "layout-shift", buffered: true });
    // Entries still queued for the observer's next callback are taken too.
    (window as unknown as { __shifts: () => typeof shifts }).__shifts = () => {
      take(observer.takeRecords());
      return shifts;
    };
  });
}

/** Every layout shift recordShifts has seen so far. */
export function layoutShifts(page: Page): Promise<Shift[]> {
  return page.evaluate(() => (window as unknown as { __shifts: () => Shift[] }).__shifts());
}

/** The tags of an HTML document's head that crawlers and link previews read. */
export function headTags(html: string): Record<string, string | undefined> {
  const part = html.slice(0, html.indexOf("</head>"));
  const attribute = (pattern: RegExp) => pattern.exec(part)?.[1];
  return {
    title: attribute(/<title>([^<]*)<\/title>/),
    description: attribute(/<meta name="description" content="([^"]*)"/),
    canonical: attribute(/<link rel="canonical" href="([^"]*)"/),
    ogTitle: attribute(/<meta property="og:title" content="([^"]*)"/),
    ogDescription: attribute(/<meta property="og:description" content="([^"]*)"/),
    ogUrl: attribute(/<meta property="og:url" content="([^"]*)"/),
    ogType: attribute(/<meta property="og:type" content="([^"]*)"/),
    ogSiteName: attribute(/<meta property="og:site_name" content="([^"]*)"/),
    twitterCard: attribute(/<meta name="twitter:card" content="([^"]*)"/),
    markdown: attribute(/<link rel="alternate" type="text\/markdown" href="([^"]*)"/),
  };
}

/**
 * One setup of eachThemeAndWidth: `suffix` names it as `<theme>-<width>` for screenshots, and
 * `themeOnly` is true in the second theme at a width, where axe needs only the theme's rules
 * (`axeViolations(page, { themeOnly })`: the first theme ran every rule on the same DOM and layout).
 * `first` is the first setup (the first viewport, the first theme).
 */
export type Setup = {
  theme: "cosmic" | "void";
  width: number;
  suffix: string;
  themeOnly: boolean;
  first: boolean;
};

/**
 * Runs `check` at each viewport in both themes, on the page as loaded: the width and the theme are
 * changed in place (layout follows the width, colours the theme). Ends at the last viewport in the
 * void theme.
 */
export async function eachThemeAndWidth(
  page: Page,
  viewports: readonly { width: number; height: number }[],
  check: (setup: Setup) => Promise<void>,
): Promise<void> {
  for (const [index, viewport] of viewports.entries()) {
    await page.setViewportSize(viewport);
    for (const theme of ["cosmic", "void"] as const) {
      await showTheme(page, theme);
      const suffix = `${theme}-${viewport.width}`;
      const first = index === 0 && theme === "cosmic";
      await check({ theme, width: viewport.width, suffix, themeOnly: theme === "void", first });
    }
  }
}

/**
 * The accessibility matrix of a screen as it is: at each viewport in both themes (eachThemeAndWidth),
 * 0 axe violations and no sideways scroll, and a screenshot (lookAt) named `<name>-<theme>-<width>`.
 */
export async function auditEachThemeAndWidth(
  page: Page,
  viewports: readonly { width: number; height: number }[],
  name: string,
  shot: { fullPage?: boolean } = { fullPage: true },
): Promise<void> {
  await eachThemeAndWidth(page, viewports, async ({ suffix, themeOnly }) => {
    expect(await axeViolations(page, { themeOnly }), suffix).toEqual([]);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await lookAt(page, `${name}-${suffix}`, shot);
  });
}
