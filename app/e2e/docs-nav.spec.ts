import { expect, test } from "@playwright/test";
import { horizontalOverflow, hydrated, lookAt } from "./checks";

// The docs area's navigation (spec 2.1, 2.7): every tab and CLI subtab, the sidebar links, and the
// sidebar folding behind "Docs menu" on phones. The redirects of /mg and /metagenesis are in
// routes.spec.ts; that every docs page shows its heading, its first section and its pager is checked
// by the page sweep (pages.spec.ts).

test("sidebar links open their pages and mark the current one", async ({ page }) => {
  await page.goto("/mg/overview");
  const sidebar = page.getByRole("navigation", { name: "Docs sections" });
  const expectations = [
    { link: "LSD", url: /\/mg\/cli\/lsd$/, heading: "LSD Commands" },
    { link: "CLI Commands", url: /\/mg\/cli\/main$/, heading: "CLI Overview" },
    { link: "DMT", url: /\/mg\/cli\/dmt$/, heading: "DMT Commands" },
    { link: "DREAM", url: /\/mg\/dream$/, heading: "DREAM" },
    { link: "ESP", url: /\/mg\/esp$/, heading: "ESP" },
  ];
  for (const step of expectations) {
    await sidebar.getByRole("link", { name: step.link, exact: true }).click();
    await expect(page).toHaveURL(step.url);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(step.heading);
    await expect(sidebar.getByRole("link", { name: step.link, exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
  }
  await expect(sidebar.getByText("Apotheosis")).toContainText("coming soon");
  await expect(sidebar.getByRole("link", { name: /Apotheosis/ })).toHaveCount(0);
});

test("on a 375 px phone the sidebar folds behind a Docs menu button", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/mg/quickstart");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Quick Start");
  // The prerendered button does nothing until React has taken the page over.
  await hydrated(page);

  const menu = page.getByRole("button", { name: "Docs menu" });
  const sidebar = page.getByRole("navigation", { name: "Docs sections", includeHidden: true });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  const controls = await menu.getAttribute("aria-controls");
  expect(controls).toBeTruthy();
  await expect(sidebar).toHaveAttribute("id", controls ?? "");
  await expect(sidebar).toBeHidden();

  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(sidebar.getByRole("link", { name: "LSD", exact: true })).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await lookAt(page, "docs-menu-open-375");

  // Following a link opens the page and folds the menu again.
  await sidebar.getByRole("link", { name: "LSD", exact: true }).click();
  await expect(page).toHaveURL(/\/mg\/cli\/lsd$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("LSD Commands");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(sidebar).toBeHidden();

  // And the button closes it too, from the keyboard.
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(sidebar).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(sidebar).toBeHidden();
});

test("on a desktop the sidebar is always open and there is no menu button", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/mg/flow");
  await expect(page.getByRole("button", { name: "Docs menu" })).toBeHidden();
  await expect(
    page.getByRole("navigation", { name: "Docs sections" }).getByRole("link", { name: "DMT" }),
  ).toBeVisible();
});

test("no docs page scrolls sideways at 320 px, menu open or closed", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  for (const path of ["/mg/overview", "/mg/cli/dmt", "/mg/configuration"]) {
    await page.goto(path);
    await expect(page.getByRole("navigation", { name: "Previous and next pages" })).toBeVisible();
    expect(await horizontalOverflow(page), path).toBeLessThanOrEqual(0);
    await page.getByRole("button", { name: "Docs menu" }).click();
    await expect(page.getByRole("navigation", { name: "Docs sections" })).toBeVisible();
    expect(await horizontalOverflow(page), `${path} with the menu open`).toBeLessThanOrEqual(0);
  }
});

test("Copy page as Markdown fetches the page's Markdown on the click and copies it whole", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  await page.goto("/mg/safety");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirmations and safety");
  await expect(page.locator(".docs-prose h2").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  const beforeClick = requested.length;

  await page.getByRole("button", { name: "Copy page as Markdown" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Page copied as Markdown" })).toHaveCount(
    1,
  );
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.startsWith("# Confirmations and safety\n\n")).toBe(true);
  expect(copied).toContain("## Running unattended");
  // The body was not part of the page's first load: one more script arrived for the click.
  expect(requested.slice(beforeClick).some((url) => url.endsWith(".js"))).toBe(true);
});
