import { expect, type Page, test } from "@playwright/test";
import { hydrated } from "./checks";

/** Opens /telekinesis, hydrated, on a CPU six times slower: the re-render after each tab change
 * lags well behind the next key. Call `restore` at the end. */
async function slowTabs(page: Page) {
  await page.goto("/telekinesis");
  await hydrated(page);
  const tablist = page.getByRole("tablist", { name: "Telekinesis topics" });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  const restore = () => cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  return { tablist, restore };
}

test("the tabs work from the keyboard and keep the tab in the address", async ({ page }) => {
  await page.goto("/telekinesis");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Telekinesis");
  const tablist = page.getByRole("tablist", { name: "Telekinesis topics" });
  const overview = tablist.getByRole("tab", { name: "Overview" });
  await expect(overview).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel")).toContainText("An event-driven task queue");

  await hydrated(page);
  await overview.focus();
  await page.keyboard.press("ArrowRight");
  const lsd = tablist.getByRole("tab", { name: "LSD" });
  await expect(lsd).toBeFocused();
  await expect(lsd).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/\/telekinesis\?tab=lsd$/);
  await expect(page.getByRole("tabpanel", { name: "LSD" })).toContainText("Edge database");

  await page.keyboard.press("End");
  await expect(tablist.getByRole("tab", { name: "ESP" })).toBeFocused();
  await expect(page.getByRole("tabpanel")).toContainText("static sites behind a CDN");
  await page.keyboard.press("ArrowRight");
  await expect(overview).toBeFocused();
  await expect(page).toHaveURL(/\/telekinesis$/);
  await page.keyboard.press("ArrowLeft");
  await expect(tablist.getByRole("tab", { name: "ESP" })).toBeFocused();
  await page.keyboard.press("Home");
  await expect(overview).toBeFocused();

  // Only the selected tab is in the Tab order; Tab moves on into the panel.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("tabpanel")).toBeFocused();
});

test("keys pressed back to back on a slow machine all count, each from the tab it lands on", async ({
  page,
}) => {
  const { tablist, restore } = await slowTabs(page);
  await tablist.getByRole("tab", { name: "Overview" }).focus();
  // Overview -> LSD -> Integration -> LSD -> ESP -> Integration, with no wait between the keys.
  for (const key of ["ArrowRight", "ArrowRight", "ArrowLeft", "End", "ArrowLeft"]) {
    await page.keyboard.press(key);
  }
  // And keys dispatched in one task, so no re-render at all comes between them:
  // Integration -> ESP -> Overview -> LSD.
  await page.evaluate(() => {
    for (const key of ["ArrowRight", "ArrowRight", "ArrowRight"]) {
      document.activeElement?.dispatchEvent(
        new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }),
      );
    }
  });
  const lsd = tablist.getByRole("tab", { name: "LSD" });
  await expect(lsd).toBeFocused();
  await expect(lsd).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/\/telekinesis\?tab=lsd$/);
  await expect(page.getByRole("tabpanel", { name: "LSD" })).toContainText("Edge database");
  await restore();
});

test("Tab pressed right after a tab change goes on into the panel, and Shift+Tab comes back to that tab", async ({
  page,
}) => {
  const { tablist, restore } = await slowTabs(page);
  const overview = tablist.getByRole("tab", { name: "Overview" });
  await overview.focus();
  // Overview -> ESP -> Overview, then Tab at once: the tab left behind must not take the focus.
  for (const key of ["ArrowLeft", "Home", "Tab"]) await page.keyboard.press(key);
  await expect(page.getByRole("tabpanel")).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(overview).toBeFocused();
  await expect(overview).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/\/telekinesis$/);
  await restore();
});

test("?tab=integration opens that tab directly; unknown tabs fall back to the overview", async ({
  page,
}) => {
  await page.goto("/telekinesis?tab=integration");
  await expect(page.getByRole("tab", { name: "Integration" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await expect(page.getByRole("tabpanel")).toContainText("Sending work from your app");
  await page.goto("/telekinesis?tab=nope");
  await expect(page.getByRole("tab", { name: "Overview" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
});

test("the lsd counters are labelled as a demonstration and change every 3 s", async ({ page }) => {
  await page.clock.install();
  await page.goto("/telekinesis?tab=lsd");
  await expect(page.getByTestId("demo-label")).toHaveText(/^Demo data - randomly generated/);
  const counters = page.getByTestId("demo-counters");
  await expect(counters.getByRole("definition").first()).toHaveText(/^\d+$/);
  const before = await counters.innerText();
  await page.clock.runFor(3_100);
  await expect.poll(() => counters.innerText()).not.toBe(before);
});
