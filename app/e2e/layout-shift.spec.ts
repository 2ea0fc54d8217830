import { expect, type Page, test } from "@playwright/test";

// docs/quality.md: CLS 0 on every route, in both themes. Every layout shift the page records from
// navigation until it has settled (the prerendered HTML painted, then hydrated, the session known, the
// health checks answered, the widgets drawn) is summed; the nodes that moved are reported so a failure
// says what to reserve room for.

const routes = ["/", "/apotheosis", "/telekinesis", "/mg/overview", "/mg/cli/dmt", "/no-such-page"];
const themes = ["cosmic", "void"] as const;
const viewports = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "mobile", width: 375, height: 740 },
  // Lighthouse's mobile viewport: between the two, where a status card's head fits on one line only
  // until its badge says more than 'Checking'.
  { name: "lighthouse-mobile", width: 412, height: 823 },
];

type Shift = { value: number; sources: string[] };

async function recordShifts(page: Page) {
  await page.addInitScript(() => {
    const shifts: { value: number; sources: string[] }[] = [];
    (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as PerformanceEntry[] &
        {
          value: number;
          hadRecentInput: boolean;
          sources?: { node?: Node | null }[];
        }[]) {
        if (entry.hadRecentInput) continue;
        shifts.push({
          value: entry.value,
          sources: (entry.sources ?? []).map((source) => {
            const node = source.node;
            if (!(node instanceof Element)) return String(node?.nodeName);
            const parent = node.parentElement;
            const { previousRect: was, currentRect: now } = source as unknown as {
              previousRect: DOMRectReadOnly;
              currentRect: DOMRectReadOnly;
            };
            return `${node.nodeName.toLowerCase()}.${node.className} in ${parent?.nodeName.toLowerCase()}.${parent?.className} ${was.y}->${now.y} h${was.height}->${now.height}`;
          }),
        });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

// Every route at every width in the default theme. The stored theme changes colours and which label
// the theme toggle shows, so the light theme is checked at the narrowest width, where a late switch
// of that label would move the navigation the most.
const runs = viewports.flatMap((viewport) =>
  themes
    .filter((theme) => theme === "cosmic" || viewport.name === "mobile")
    .map((theme) => ({ viewport, theme })),
);

for (const viewport of viewports) {
  test.describe(`layout shift at ${viewport.name} width`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const [route, theme] of routes.flatMap((route) =>
      runs.filter((run) => run.viewport === viewport).map((run) => [route, run.theme] as const),
    )) {
      test(`${route} (${theme}) does not move once drawn, hydration included`, async ({ page }) => {
        await recordShifts(page);
        await page.addInitScript((stored) => window.localStorage.setItem("theme", stored), theme);
        await page.goto(route);
        await expect(page.locator("h1").first()).toBeVisible();
        // Hydrated: the h1 the server sent is React's now.
        await expect
          .poll(() =>
            page
              .locator("h1")
              .first()
              .evaluate((h1) => Object.keys(h1).some((key) => key.startsWith("__reactFiber"))),
          )
          .toBe(true);
        await page.waitForLoadState("networkidle");
        // The session check and the first health answers land within this; later polls are 30 s away.
        await page.waitForTimeout(1500);
        const shifts = await page.evaluate(
          () => (window as unknown as { __shifts: Shift[] }).__shifts,
        );
        const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
        expect(total, `shifts: ${JSON.stringify(shifts)}`).toBe(0);
      });
    }
  });
}
