import { expect, test } from "@playwright/test";

// Spec 2.1: every route of the table answers 200 and shows a titled page.
const routes = [
  { path: "/", heading: "mg" },
  { path: "/apotheosis", heading: "Apotheosis status" },
  { path: "/mg/overview", heading: "Docs: overview" },
  { path: "/mg/quickstart", heading: "Docs: quickstart" },
  { path: "/mg/cli/main", heading: "CLI docs: main" },
  { path: "/mg/cli/dmt", heading: "CLI docs: dmt" },
  { path: "/mg/cli/lsd", heading: "CLI docs: lsd" },
  { path: "/telekinesis", heading: "Telekinesis" },
  { path: "/docs", heading: "Docs" },
  { path: "/auth/callback", heading: "Signing in" },
  { path: "/home", heading: "Dashboard" },
] as const;

for (const route of routes) {
  test(`${route.path} answers 200 with a titled page`, async ({ page }) => {
    const response = await page.goto(route.path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(route.heading);
    await expect(page).toHaveTitle(`${route.heading} · mg`);
  });
}

for (const path of ["/metagenesis", "/mg"]) {
  test(`${path} replaces history with /mg/overview`, async ({ page }) => {
    await page.goto("/");
    await page.goto(path);
    await expect(page).toHaveURL(/\/mg\/overview$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Docs: overview");
    // Replaced, not pushed: going back leaves the redirect behind and returns to /.
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
  });
}
