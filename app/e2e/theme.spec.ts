import { expect, test } from "@playwright/test";
import { hydrated, lookAt } from "./checks";

// The theme toggle; what a fresh visitor sees (the cosmic theme) is checked on every page by the
// page sweep (pages.spec.ts).
const VOID_BACKGROUND = "rgb(250, 250, 255)";

test("the toggle switches theme, persists it, and a reload never paints the other theme", async ({
  page,
}) => {
  await page.goto("/");
  await hydrated(page);
  const toggle = page.getByRole("button", { name: "Switch to the void theme" });
  await toggle.click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "void");
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("void");

  // Record the theme and background of every frame from the very first one after reload.
  // requestAnimationFrame callbacks run before each paint, so these are the painted values.
  await page.addInitScript(() => {
    const log: { theme: string | undefined; background: string }[] = [];
    (window as unknown as { __frames: typeof log }).__frames = log;
    const sample = () => {
      const root = document.documentElement;
      if (root) {
        log.push({ theme: root.dataset.theme, background: getComputedStyle(root).backgroundColor });
      }
      if (log.length < 60) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await page.reload();
  await expect(page.getByRole("button", { name: "Switch to the cosmic theme" })).toBeVisible();
  await page.waitForFunction(
    () => (window as unknown as { __frames: unknown[] }).__frames.length >= 10,
  );
  const frames = await page.evaluate(
    () => (window as unknown as { __frames: { theme?: string; background: string }[] }).__frames,
  );
  expect(frames.length).toBeGreaterThanOrEqual(10);
  for (const frame of frames) {
    expect(frame).toEqual({ theme: "void", background: VOID_BACKGROUND });
  }
  await lookAt(page, "landing-void", { fullPage: true });

  // And back again, persisted as cosmic. A toggle made before the theme's owner (a chunk that comes
  // with the wasm core) is there waits for it, so the reload comes once the toggle took effect.
  await page.getByRole("button", { name: "Switch to the cosmic theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "cosmic");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "cosmic");
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("cosmic");
});

test("the theme toggle works from the keyboard", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("button", { name: "Switch to the void theme" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "void");
});
