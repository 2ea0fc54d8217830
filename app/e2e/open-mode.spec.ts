import { expect, type Page, test } from "@playwright/test";
import { pages } from "./pages";

// Open mode (spec 2.1, 6): the server runs with SANCTIFIED=false (project "open-mode" in
// playwright.config.ts). Everything is public, nobody signs in: no Log in or Sign up anywhere, the
// identity SDK is never loaded, and /auth/callback and /home do not exist (the app's 404 page, and
// an HTTP 404 from the server).

const publicPages = [
  pages.landing,
  pages.status,
  pages.telekinesis,
  pages.overview,
  pages.cliDmt,
  pages.notFound,
] as const;

/** Every request the page makes to the identity service (the emulator's routes on this origin). */
function identityCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (/^\/(v1\/auth|v2\/keys|emulator)\//.test(pathname)) calls.push(pathname);
  });
  return calls;
}

test.beforeAll(async ({ request }) => {
  // Guard against running this file against the wrong server: the injected config must say open mode.
  const html = await (await request.get("/")).text();
  expect(html).toMatch(/"sanctified"\s*:\s*false/);
});

for (const target of publicPages) {
  test(`${target.path} works with no Log in or Sign up`, async ({ page }) => {
    const calls = identityCalls(page);
    await page.goto(target.path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(target.heading);
    await expect(page.getByRole("banner")).toBeVisible();
    // Give the after-first-paint work (where the SDK would load) time to run.
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("button", { name: "Log in" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Sign up" })).toHaveCount(0);
    await expect(page.getByText(/^(Log in|Sign up)$/)).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
    expect(calls).toEqual([]);
  });
}

test("the landing page still works: health cards, wisdom, and Sanctified shown as Off", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apotheosis");
  // The API and database checks run against this server and come back healthy.
  for (const card of ["card-server", "card-database"]) {
    await expect(page.getByTestId(card).locator("[data-health]")).toHaveAttribute(
      "data-health",
      "healthy",
      { timeout: 10_000 },
    );
  }
  const facts = page.getByRole("region", { name: "Deployment Information" });
  await expect(
    facts.locator(".facts__row", { hasText: "Sanctified" }).getByRole("definition"),
  ).toHaveText("Off");
  await page.getByRole("button", { name: "Wisdom" }).click();
  await expect(page.getByTestId("wisdom-quote")).toBeVisible();
  await expect(page.getByTestId("wisdom-quote").locator("blockquote")).not.toBeEmpty();
});

for (const path of ["/home", "/auth/callback", "/auth/callback?code=abc"]) {
  test(`${path} is the 404 page, and the server answers HTTP 404`, async ({ page }) => {
    const calls = identityCalls(page);
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await expect(page).toHaveTitle("Page not found · mg");
    // Not redirected (as /home is for anonymous visitors in sanctified mode), no exchange attempted.
    expect(new URL(page.url()).pathname).toBe(path.split("?")[0]);
    await expect(page.getByText("Completing authentication...")).toHaveCount(0);
    await page.waitForLoadState("networkidle");
    expect(calls).toEqual([]);
  });
}
