import { expect, type Page, test } from "@playwright/test";
import { canvasPicture, lookAt } from "./checks";

// The graphics harness (graphics.html) shows every widget; pixels are read back from the canvases
// (the renderer keeps its drawing buffer, so a finished frame stays readable).

// The widgets' motion is what this spec tests (the config asks for reduced motion by default).
test.use({ reducedMotion: "no-preference" });

const SCENES = ["icosahedron", "hypercube", "helix", "molecule"] as const;
type Scene = (typeof SCENES)[number];

const box = (page: Page, scene: Scene) => page.locator(`.graphics-widget[data-scene="${scene}"]`);
const canvas = (page: Page, scene: Scene) => box(page, scene).locator("canvas");

async function open(page: Page, theme: "cosmic" | "void" = "cosmic") {
  await page.goto(`/graphics.html?theme=${theme}`);
  for (const scene of SCENES) {
    await expect(box(page, scene)).toHaveAttribute("data-graphics", "webgl");
    await expect(canvas(page, scene)).toHaveAttribute("data-frames", /^[1-9]/);
  }
}

async function dataNumber(page: Page, scene: Scene, name: string): Promise<number> {
  return Number(await canvas(page, scene).getAttribute(`data-${name}`));
}

function picture(page: Page, scene: Scene): Promise<{ lit: number; image: string }> {
  return canvasPicture(canvas(page, scene));
}

async function framesPass(page: Page, scene: Scene, count: number) {
  const start = await dataNumber(page, scene, "frames");
  await expect
    .poll(() => dataNumber(page, scene, "frames"), { timeout: 5_000 })
    .toBeGreaterThanOrEqual(start + count);
}

for (const theme of ["cosmic", "void"] as const) {
  test(`every widget draws a moving picture in the ${theme} theme`, async ({ page }) => {
    await open(page, theme);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    for (const scene of SCENES) {
      const first = await picture(page, scene);
      expect(first.lit, `${scene} lit pixels`).toBeGreaterThan(300);
      await framesPass(page, scene, 10);
      const later = await picture(page, scene);
      expect(later.lit).toBeGreaterThan(300);
      expect(later.image, `${scene} changes between frames`).not.toBe(first.image);
    }
    await lookAt(page, `graphics-${theme}`);
  });
}

test("widget 1 is a 250 px box with 15 px corners, hidden from assistive technology", async ({
  page,
}) => {
  await open(page);
  const widget = box(page, "icosahedron");
  await expect(widget).toHaveAttribute("aria-hidden", "true");
  await expect(widget).toHaveCSS("border-radius", "15px");
  const size = await widget.boundingBox();
  expect(size?.width).toBe(250);
  expect(size?.height).toBe(250);
  await expect(canvas(page, "icosahedron")).toHaveCSS("touch-action", "none");
  // Crisp: the drawing buffer matches the device pixels.
  const buffer = await canvas(page, "icosahedron").evaluate((c) => {
    const element = c as HTMLCanvasElement;
    return { width: element.width, ratio: window.devicePixelRatio };
  });
  expect(buffer.width).toBe(Math.round(250 * buffer.ratio));
});

test("under reduced motion each widget draws one still frame", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await open(page);
  const before = await Promise.all(SCENES.map((scene) => picture(page, scene)));
  const frames = await Promise.all(SCENES.map((scene) => dataNumber(page, scene, "frames")));
  // Time is the subject here: the still frame stays still for a while.
  await page.waitForTimeout(600);
  for (const [i, scene] of SCENES.entries()) {
    const after = await picture(page, scene);
    expect(before[i]?.lit, `${scene} is drawn`).toBeGreaterThan(300);
    expect(after.image, `${scene} stays still`).toBe(before[i]?.image);
    expect(await dataNumber(page, scene, "frames")).toBe(frames[i]);
  }
});

test("dragging turns each widget", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await open(page);
  for (const scene of SCENES) {
    const before = await picture(page, scene);
    const area = await canvas(page, scene).boundingBox();
    if (!area) throw new Error("no canvas box");
    const x = area.x + area.width / 2;
    const y = area.y + area.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 40, y + 25, { steps: 4 });
    await page.mouse.up();
    const after = await picture(page, scene);
    expect(after.image, `${scene} turned`).not.toBe(before.image);
    expect(after.lit).toBeGreaterThan(300);
  }
});

test("a theme change rebuilds every widget without leaking GL objects", async ({ page }) => {
  await open(page);
  const objects = await Promise.all(SCENES.map((scene) => dataNumber(page, scene, "gl-objects")));
  const builds = await Promise.all(SCENES.map((scene) => dataNumber(page, scene, "gl-builds")));
  for (const count of objects) expect(count).toBeGreaterThan(0);
  const toggle = page.getByRole("button", { name: /Theme:/ });
  for (let i = 0; i < 4; i += 1) await toggle.click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "cosmic");
  for (const [i, scene] of SCENES.entries()) {
    await expect(canvas(page, scene)).toHaveAttribute(
      "data-gl-builds",
      String((builds[i] ?? 0) + 4),
    );
    expect(await dataNumber(page, scene, "gl-objects"), `${scene} objects`).toBe(objects[i]);
    await framesPass(page, scene, 3);
    expect((await picture(page, scene)).lit).toBeGreaterThan(300);
  }
});

test("widgets pause while off screen and resume when scrolled back", async ({ page }) => {
  await open(page);
  await page.evaluate(() => {
    const spacer = document.createElement("div");
    spacer.style.height = "4000px";
    document.body.append(spacer);
    window.scrollTo(0, 3000);
  });
  // Parked: a frame passes without a new drawing (the loop draws on every frame while it runs).
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            const helix = document.querySelector<HTMLElement>(
              '.graphics-widget[data-scene="helix"] canvas',
            );
            const before = helix?.dataset.frames;
            requestAnimationFrame(() =>
              requestAnimationFrame(() => resolve(helix?.dataset.frames === before)),
            );
          }),
      ),
    )
    .toBe(true);
  const parked = await dataNumber(page, "helix", "frames");
  // Time is the subject here: it stays parked for a while off screen.
  await page.waitForTimeout(500);
  expect(await dataNumber(page, "helix", "frames")).toBe(parked);
  await page.evaluate(() => window.scrollTo(0, 0));
  await framesPass(page, "helix", 5);
});

test("without WebGL2 each box shows the static fallback and nothing errors", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.addInitScript(() => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (
      this: HTMLCanvasElement,
      kind: string,
      ...rest: unknown[]
    ) {
      if (kind === "webgl2") return null;
      return (original as (...args: unknown[]) => unknown).call(this, kind, ...rest);
    } as typeof original;
  });
  await page.goto("/graphics.html");
  for (const scene of SCENES) {
    await expect(box(page, scene)).toHaveAttribute("data-graphics", "fallback");
    await expect(canvas(page, scene)).toBeHidden();
    const size = await box(page, scene).boundingBox();
    expect(size?.width).toBe(250);
  }
  const ring = await box(page, "icosahedron").evaluate(
    (element) => getComputedStyle(element, "::before").borderTopColor,
  );
  expect(ring).toBe("rgb(0, 212, 255)");
  expect(errors).toEqual([]);
});
