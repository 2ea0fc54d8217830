import { expect, type Page, test } from "@playwright/test";
import { auditEachThemeAndWidth } from "./checks";

// Sanctified mode with no identity project (spec 2.1): the server runs with an external identity
// service (IDENTITY_BASE_URL, a closed port) and no IDENTITY_PROJECT_ID (project "unconfigured" in
// playwright.config.ts). Every screen is replaced by the full-screen 'Authentication Configuration
// Required' notice with its three steps; nothing of the app behind it shows, and nothing tries to
// reach the identity service.

const routes = [
  "/",
  "/apotheosis",
  "/telekinesis",
  "/mg/overview",
  "/mg/cli/dmt",
  "/docs",
  "/metagenesis",
  "/auth/callback?code=abc",
  "/home",
  "/no-such-page",
] as const;

const TITLE = "Authentication Configuration Required";

test.beforeAll(async ({ request }) => {
  // Guard against running this file against the wrong server: sanctified, and no project id.
  const html = await (await request.get("/")).text();
  const config = /id="mg-runtime-config">([^<]*)</.exec(html)?.[1] ?? "{}";
  const parsed = JSON.parse(config) as { sanctified?: boolean; identityProjectId?: string };
  expect(parsed.sanctified).toBe(true);
  expect(parsed.identityProjectId).toBeUndefined();
});

async function expectNotice(page: Page) {
  const notice = page.getByRole("main");
  await expect(notice.getByRole("heading", { level: 1 })).toHaveText(TITLE);
  await expect(
    notice.getByText("Sanctified mode is enabled, but authentication is not configured"),
  ).toBeVisible();
  const steps = notice.getByRole("listitem");
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(0)).toContainText("Set the identity project ID");
  await expect(steps.nth(0)).toContainText("IDENTITY_PROJECT_ID");
  await expect(steps.nth(1)).toContainText("OAuth");
  await expect(steps.nth(1)).toContainText("identity provider's console");
  await expect(steps.nth(2)).toHaveText("Redeploy the application.");
}

for (const path of routes) {
  test(`${path} shows only the full-screen configuration notice`, async ({ page }) => {
    const identityCalls: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.port === "9" || /^\/(v1\/auth|v2\/keys)\//.test(url.pathname))
        identityCalls.push(request.url());
    });
    await page.goto(path);
    await expectNotice(page);
    // Replaced, not added to: no navigation, no page content, no sign-in, and only one heading 1.
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expect(page.getByRole("banner")).toHaveCount(0);
    await expect(page.getByRole("navigation")).toHaveCount(0);
    await expect(page.getByRole("button")).toHaveCount(0);
    await expect(page.getByRole("link")).toHaveCount(0);
    await expect(page.getByText("Completing authentication...")).toHaveCount(0);
    // Full screen: the notice covers the whole viewport.
    const viewport = page.viewportSize();
    const box = await page.locator(".config-notice").boundingBox();
    expect(box?.width).toBe(viewport?.width);
    expect(box?.height).toBeGreaterThanOrEqual(viewport?.height ?? 0);
    await page.waitForLoadState("networkidle");
    expect(identityCalls).toEqual([]);
  });
}

// One load (with the void theme stored, which the notice applies), the width and the theme changed in
// place: every rule in the cosmic theme, the theme's rules in the void one.
test("the notice has no axe violations in both themes at 1280 and 375 px", async ({ page }) => {
  // Four axe runs, each up to half a minute on a loaded two-core machine.
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.addInitScript(() => localStorage.setItem("theme", "void"));
  await page.goto("/");
  await expectNotice(page);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "void");
  const widths = [
    { width: 1280, height: 800 },
    { width: 375, height: 800 },
  ];
  await auditEachThemeAndWidth(page, widths, "config-notice", {});
});
