import { expect, type Page, test } from "@playwright/test";
import { axeViolations, eachThemeAndWidth, horizontalOverflow, lookAt, showTheme } from "./checks";
import { openCallback, requireEmulator } from "./sign-in";

// The callback page: while it completes a sign-in, the spinner and its words sit
// together in the middle and the nav offers no Log in or Sign up; when it fails, 'Authentication
// Issue' is a calm, compact panel: its heading on one line, nothing but padding under its actions.
// Both themes at 1280 and 375 px, with screenshots.

test.beforeAll(async ({ request }) => requireEmulator(request));

const viewports = [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
] as const;

async function openMenuIfCollapsed(page: Page) {
  const menu = page.getByRole("button", { name: "Menu" });
  if ((await menu.isVisible()) && (await menu.getAttribute("aria-expanded")) !== "true") {
    await menu.click();
  }
}

/** Closes the collapsed navigation's menu if a check opened it, for the next setup. */
async function closeMenuIfOpen(page: Page) {
  const menu = page.getByRole("button", { name: "Menu" });
  if ((await menu.isVisible()) && (await menu.getAttribute("aria-expanded")) === "true") {
    await menu.click();
  }
}

// One load for each state; the width and the theme change in place.
test("completing: spinner and words together, centred, no Log in (both themes, 1280 and 375 px)", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize(viewports[0]);
  // The exchange is held, so the page stays on 'Completing authentication...'.
  await page.route("**/v1/auth/oauth/exchange", () => {});
  await openCallback(page, "code=held-for-the-test");
  const status = page.getByRole("status").filter({ hasText: "Completing authentication..." });
  await expect(status).toBeVisible();
  // Measured without the spin (a turning square's box grows and shrinks).
  const measure = () =>
    status.evaluate((element) => {
      const spinner = element.querySelector(".spinner") as HTMLElement | null;
      if (spinner) spinner.style.animation = "none";
      const wheel = spinner?.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(element);
      const lines = [...range.getClientRects()].filter(
        (rect) => rect.height > 12 && rect.height < 40,
      );
      const text = lines[lines.length - 1];
      return wheel && text
        ? {
            wheelX: wheel.left + wheel.width / 2,
            wheelBottom: wheel.bottom,
            textX: text.left + text.width / 2,
            textTop: text.top,
          }
        : null;
    });
  await eachThemeAndWidth(page, viewports, async ({ theme, width, suffix, themeOnly }) => {
    // The callback gives up after its 10 s; on a loaded machine the looks before this one can
    // take longer, so a page that gave up is opened again (in this look's theme and width).
    if (!(await status.isVisible())) {
      await openCallback(page, "code=held-for-the-test");
      await expect(status).toBeVisible();
      await showTheme(page, theme);
    }
    // The page swaps its first placeholder for the callback's own (the same markup): keep the
    // first complete measurement, since a second one can land mid-swap and find neither.
    let boxes = null as Awaited<ReturnType<typeof measure>>;
    await expect
      .poll(async () => {
        boxes = await measure().catch(() => null);
        return boxes !== null;
      })
      .toBe(true);
    if (!boxes) throw new Error("no spinner or no words");
    // Together: the spinner sits just above its words (not hundreds of px away).
    expect(boxes.textTop - boxes.wheelBottom).toBeGreaterThanOrEqual(0);
    expect(boxes.textTop - boxes.wheelBottom).toBeLessThan(32);
    // Centred, on one vertical axis, which is the page's.
    expect(Math.abs(boxes.wheelX - width / 2), suffix).toBeLessThan(12);
    expect(Math.abs(boxes.textX - width / 2), suffix).toBeLessThan(12);

    await openMenuIfCollapsed(page);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("button", { name: "Projects" })).toBeVisible();
    await expect(nav.getByRole("button", { name: "Log in" })).toHaveCount(0);
    await expect(nav.getByRole("button", { name: "Sign up" })).toHaveCount(0);
    expect(await axeViolations(page, { themeOnly }), suffix).toEqual([]);
    await lookAt(page, `callback-completing-${suffix}`);
    await closeMenuIfOpen(page);
  });
});

test("failed: a calm, compact 'Authentication Issue' (both themes, 1280 and 375 px)", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize(viewports[0]);
  await openCallback(page, "code=not-a-real-code");
  const heading = page.getByRole("heading", { name: "Authentication Issue" });
  await expect(heading).toBeVisible({ timeout: 12_000 });
  await eachThemeAndWidth(page, viewports, async ({ width, suffix, themeOnly }) => {
    const lines = await heading.evaluate((element) => {
      const style = getComputedStyle(element);
      return element.getBoundingClientRect().height / Number.parseFloat(style.lineHeight);
    });
    if (width === 1280) expect(lines, suffix).toBeLessThan(1.5);
    const size = await heading.evaluate((element) =>
      Number.parseFloat(getComputedStyle(element).fontSize),
    );
    expect(size).toBeLessThanOrEqual(24);

    const panel = page.locator(".auth-issue");
    const last = panel.getByRole("link", { name: "Back to Home" });
    const panelBox = await panel.boundingBox();
    const lastBox = await last.boundingBox();
    if (!panelBox || !lastBox) throw new Error("no boxes");
    // Under the actions: the panel's padding and border, nothing more.
    const under = panelBox.y + panelBox.height - (lastBox.y + lastBox.height);
    expect(under, suffix).toBeLessThanOrEqual(32);
    await expect(panel.getByRole("button", { name: "Run Diagnostic" })).toBeVisible();
    // Now the callback is over: the nav offers Log in again (to try once more).
    await openMenuIfCollapsed(page);
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Log in" }),
    ).toBeVisible();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page, { themeOnly }), suffix).toEqual([]);
    await lookAt(page, `callback-failed-${suffix}`, { fullPage: true });
    await closeMenuIfOpen(page);
  });
});
