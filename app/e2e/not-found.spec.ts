import { expect, test } from "@playwright/test";

// The client-side 404 page. The HTTP status of unknown paths is the server's job (404 outside the
// route manifest, docs/architecture.md "Where code goes"); this spec checks what people see.
for (const path of ["/nope", "/telekinesis/extra", "/apotheosis/x/y"]) {
  test(`${path} shows the 404 page with a title and a way back`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await expect(page).toHaveTitle("Page not found · mg");
    await expect(page.locator("main")).toContainText(path);
    await page.getByRole("link", { name: "Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
}

// The graphics harness is a test page: its own build (app/dist-harness), never shipped with the app.
test("the production build does not serve the graphics harness page", async ({ request }) => {
  const response = await request.get("/graphics.html");
  expect(response.status()).toBe(404);
  expect(await response.text()).not.toContain("graphics harness");
});
