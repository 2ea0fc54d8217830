import { expect, test } from "@playwright/test";

// Spec 2.1's routes beyond the page sweep (pages.spec.ts: every route answers 200 with its heading
// and title): the docs' page-not-found state, the docs tab row, and the redirects.
for (const path of ["/mg/nope", "/mg/cli/zzz"]) {
  test(`${path} shows the docs' page-not-found state`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  });
}

test("the docs tab row links every tab but dmt, lsd, esp and dream, and marks the active one", async ({
  page,
}) => {
  await page.goto("/mg/quickstart");
  const tabs = page.getByRole("navigation", { name: "Docs tabs" });
  await expect(tabs.getByRole("link", { name: "Quick Start" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await tabs.getByRole("link", { name: "CLI" }).click();
  await expect(page).toHaveURL(/\/mg\/cli\/main$/);
  await page
    .getByRole("navigation", { name: "CLI sections" })
    .getByRole("link", { name: "DMT Commands" })
    .click();
  await expect(page).toHaveURL(/\/mg\/cli\/dmt$/);
  await expect(page.locator("#dmt-blastoff")).toHaveText(/mg dmt blastoff/);
  await expect(page.locator("#dmt-blastoff").locator("xpath=ancestor::section[1]")).toContainText(
    "t2.micro",
  );
  for (const hidden of ["DMT", "LSD", "ESP", "DREAM"]) {
    await expect(tabs.getByRole("link", { name: hidden, exact: true })).toHaveCount(0);
  }
});

for (const path of ["/metagenesis", "/mg"]) {
  test(`${path} replaces history with /mg/overview`, async ({ page }) => {
    await page.goto("/");
    await page.goto(path);
    await expect(page).toHaveURL(/\/mg\/overview$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Deploy into your own AWS account",
    );
    // Replaced, not pushed: going back leaves the redirect behind and returns to /.
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
  });
}
