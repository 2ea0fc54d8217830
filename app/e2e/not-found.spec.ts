import { expect, test } from "@playwright/test";

// The client-side 404 page. The HTTP status of unknown paths is the server's job (it still answers
// 200 with index.html here); see the route patterns in the report of issue 6.
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
