import { expect, type Page, test } from "@playwright/test";
import {
  axeViolations,
  eachThemeAndWidth,
  horizontalOverflow,
  hydrated,
  lookAt,
  type Setup,
} from "./checks";
import { newAccount } from "./emulator-http";
import { openCallback, requireEmulator, signIn } from "./sign-in";

// The sign-in screens, as the page sweep (pages.spec.ts) does the public pages: the login and
// setup-guide modals, the dashboard (with a refused name), and the callback's failure page with its
// diagnostic, in both themes at desktop and mobile width: 0 axe violations (WCAG 2.2 AA tags), no
// horizontal scroll, and a screenshot in screenshots/ to look at. Against the real server and its
// identity emulator. Each screen is loaded once; the width and the theme change in place.
test.describe.configure({ timeout: 90_000 });
test.beforeAll(async ({ request }) => requireEmulator(request));

const widths = [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
] as const;

/** Runs `check` at each width in both themes (changed in place). */
const eachSetup = (page: Page, check: (setup: Setup) => Promise<void>) =>
  eachThemeAndWidth(page, widths, check);

/** axe (only the theme's rules where `themeOnly`: a screen left as the other theme saw it; only
 * within `include` where the rest is checked elsewhere), overflow, and a screenshot. */
async function settled(
  page: Page,
  shot: string,
  {
    fullPage = false,
    themeOnly = false,
    include,
  }: { fullPage?: boolean; themeOnly?: boolean; include?: string } = {},
) {
  expect(await axeViolations(page, { themeOnly, include })).toEqual([]);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  // A dialog scrolls on its own: nothing in it may be wider than it (a long URL, say).
  const dialogOverflow = await page
    .getByRole("dialog")
    .evaluateAll((dialogs) =>
      Math.max(0, ...dialogs.map((dialog) => dialog.scrollWidth - dialog.clientWidth)),
    );
  expect(dialogOverflow).toBeLessThanOrEqual(0);
  await lookAt(page, shot, { fullPage });
}

/** The top navigation's entries sit behind the Menu button on narrow screens (opened if closed). */
async function navButton(page: Page, name: string) {
  await hydrated(page);
  const menu = page.getByRole("button", { name: "Menu" });
  if ((await menu.isVisible()) && (await menu.getAttribute("aria-expanded")) !== "true") {
    await menu.click();
  }
  await page.getByRole("button", { name }).click();
}

test("the login and setup-guide modals in both themes at 1280 and 375 px", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "cosmic");
  // Each theme opens the modals anew (every rule in both). The page behind them is the page sweep's
  // (both themes, both widths): axe takes in the whole page with a modal open once, in the first
  // theme and width, and the modal alone in the others.
  await eachSetup(page, async ({ suffix, first }) => {
    const include = first ? undefined : '[role="dialog"]';
    await navButton(page, "Log in");
    const login = page.getByRole("dialog", { name: "Choose Login Method" });
    await expect(login).toBeVisible();
    await settled(page, `login-modal-${suffix}`, { include });
    await page.keyboard.press("Escape");
    await expect(login).toBeHidden();

    await navButton(page, "Setup guide");
    const guide = page.getByRole("dialog", { name: /setup guide/i });
    await expect(guide).toBeVisible();
    await settled(page, `setup-guide-modal-${suffix}`, { include });
    await page.keyboard.press("Escape");
    await expect(guide).toBeHidden();
  });
});

test("the dashboard in both themes at 1280 and 375 px, a refused name included", async ({
  page,
}) => {
  await signIn(page, newAccount("a11y-dashboard"));
  await expect(page.getByTestId("db-id")).not.toBeEmpty();
  await eachSetup(page, ({ suffix, themeOnly }) =>
    settled(page, `dashboard-${suffix}`, { fullPage: true, themeOnly }),
  );

  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("Display name").fill("   ");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert")).toHaveText("Name cannot be empty");
  // Only the name field changed since the whole dashboard was checked above.
  await eachSetup(page, ({ suffix, themeOnly }) =>
    settled(page, `dashboard-name-refused-${suffix}`, { themeOnly, include: ".name-field" }),
  );
});

test("the callback's failure page and its diagnostic in both themes at 1280 and 375 px", async ({
  page,
}) => {
  // An unknown code fails the exchange; on 127.0.0.1 the help stays up instead of redirecting.
  await openCallback(page, "code=not-a-real-code");
  await expect(page.getByRole("heading", { name: "Authentication Issue" })).toBeVisible();
  await eachSetup(page, ({ suffix, themeOnly }) =>
    settled(page, `callback-failure-${suffix}`, { themeOnly }),
  );

  await page.getByRole("button", { name: "Run Diagnostic" }).click();
  const dialog = page.getByRole("dialog", { name: "Authentication Diagnostic" });
  await expect(dialog.getByRole("listitem")).toHaveCount(4);
  await expect(dialog.locator('[data-check="api"]')).toContainText(/Pass|Fail/);
  // The failure page behind it was checked above; the dialog is what is new.
  await eachSetup(page, ({ suffix, themeOnly }) =>
    settled(page, `callback-diagnostic-${suffix}`, { themeOnly, include: '[role="dialog"]' }),
  );
});
