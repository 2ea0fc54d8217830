import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import {
  auditEachThemeAndWidth,
  axeViolations,
  horizontalOverflow,
  hydrated,
  lookAt,
} from "./checks";

// /bench: served cross-origin isolated, runs (the quick size, a few seconds), fills the chart and the
// table with every implementation, downloads its JSON, and stays axe clean in both themes.
test.describe.configure({ timeout: 90_000 });

const IMPLEMENTATIONS = ["wasm SIMD", "wasm scalar", "gl-matrix", "plain JS"];

// One run answers everything about the page after a run: the results, the download, and axe in both
// themes at 1280 and 375 px (the width and the theme changed in place).
test("/bench is isolated, runs, downloads its results, and after a run has no axe violations in both themes, at 1280 and 375 px", async ({
  page,
}) => {
  // A run, then four axe runs over the results, on a loaded two-core machine.
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const response = await page.goto("/bench?size=quick");
  expect(response?.status()).toBe(200);
  const headers = response?.headers() ?? {};
  expect(headers["cross-origin-opener-policy"]).toBe("same-origin");
  expect(headers["cross-origin-embedder-policy"]).toBe("require-corp");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Graphics bench");
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(true);
  await expect(page.getByTestId("bench-isolated")).toHaveText("Yes");

  // Keyboard: the size select, then Run.
  const run = page.getByRole("button", { name: "Run" });
  await expect(run).toBeEnabled();
  await expect(page.getByLabel("Run size")).toHaveValue("quick");
  await run.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toContainText("Done", { timeout: 60_000 });
  await expect(page.getByRole("progressbar", { name: "Bench progress" })).toHaveAttribute(
    "value",
    "100",
  );

  const table = page.getByTestId("bench-table");
  for (const impl of IMPLEMENTATIONS) {
    await expect(table.locator(`tbody tr[data-impl="${impl}"]`).first()).toBeVisible();
  }
  // Every row has a finite, positive median.
  const medians = await table.locator("tbody tr td:nth-child(4)").allTextContents();
  expect(medians.length).toBeGreaterThanOrEqual(30);
  for (const median of medians) expect(median).toMatch(/^\d+(\.\d+)? (ns|µs|ms)$/);
  const chart = page.getByTestId("bench-chart");
  await expect(chart.locator("figure")).toHaveCount(8);
  await expect(chart.locator("rect.bench-chart__bar--glmatrix")).toHaveCount(3);
  await expect(chart.locator("rect.bench-chart__bar--simd").first()).toBeVisible();
  // The boundary's cost, split: the sentence names the three figures it compares.
  await expect(page.getByTestId("bench-boundary")).toContainText("a call with no arguments");

  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download JSON" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^mg-bench-.*\.json$/);
  const report = JSON.parse(await readFile((await download.path()) ?? "", "utf8"));
  expect(report.schema).toBe("mg-bench/2");
  expect(report.crossOriginIsolated).toBe(true);
  expect(report.simdSupported).toBe(true);
  expect(report.build).toMatch(/^runner-.*\.js$/);
  expect(new Set(report.cases.map((c: { impl: string }) => c.impl))).toEqual(
    new Set(IMPLEMENTATIONS),
  );
  for (const c of report.cases) {
    expect(c.samples).toBe(5);
    expect(c.medianNs).toBeGreaterThan(0);
    expect(c.p99Ns).toBeGreaterThanOrEqual(c.medianNs);
  }

  const widths = [
    { width: 1280, height: 720 },
    { width: 375, height: 740 },
  ];
  await auditEachThemeAndWidth(page, widths, "bench");
});

test("/bench?build=scalar measures the scalar build alone, beside the JavaScript rows", async ({
  page,
}) => {
  await page.goto("/bench?size=quick&build=scalar");
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByRole("status")).toContainText("(the wasm scalar build alone)", {
    timeout: 60_000,
  });
  const report = await page.evaluate(() => window.mgBenchReport);
  expect(report?.builds).toBe("wasm scalar");
  const impls = new Set(report?.cases.map((c) => c.impl));
  expect(impls).toEqual(new Set(["wasm scalar", "gl-matrix", "plain JS"]));
  // Every frame the page times is there, in the scalar build and in JavaScript.
  const frames = report?.cases.filter((c) => c.shape === "per frame") ?? [];
  expect(frames.map((c) => c.impl).sort()).toEqual([
    ...Array(4).fill("plain JS"),
    ...Array(4).fill("wasm scalar"),
  ]);
});

test("other pages are not isolated and never load the bench's code", async ({ page }) => {
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  const response = await page.goto("/mg/overview");
  expect(response?.headers()["cross-origin-embedder-policy"]).toBeUndefined();
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(false);
  await expect(page.getByRole("link", { name: "Graphics bench" })).toHaveAttribute(
    "href",
    "/bench",
  );
  await page.waitForLoadState("networkidle");
  expect(requested.filter((url) => /bench-page|runner|gl-matrix/.test(url))).toEqual([]);
});

test("a page with a widget loads one graphics build, the SIMD one where SIMD validates", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  // The bodies are collected as promises when the responses arrive and awaited after the load: on a
  // busy machine a body can still be on its way when the network goes idle.
  const bodies: Promise<Buffer>[] = [];
  page.on("response", (response) => {
    // Either build: mg_core_graphics_bg-<hash>.wasm or mg_core_graphics_simd_bg-<hash>.wasm.
    if (/mg_core_graphics(_simd)?_bg-[\w-]+\.wasm$/.test(response.url()))
      bodies.push(response.body());
  });
  await page.goto("/telekinesis");
  await expect(page.locator(".graphics-widget canvas[data-frames]").first()).toBeAttached({
    timeout: 15_000,
  });
  await page.waitForLoadState("networkidle");
  const builds = await Promise.all(bodies);
  expect(builds).toHaveLength(1);
  // 0xfd prefixes every SIMD opcode: the simd128 build has well over a hundred, the scalar one a
  // couple of dozen (src/lib/wasm/wasm-size.test.ts).
  const simdBytes = [...(builds[0] ?? [])].filter((byte) => byte === 0xfd).length;
  expect(simdBytes).toBeGreaterThan(100);
});

test("/bench compares two result files: changes with intervals and both environments", async ({
  page,
}) => {
  const run = (ns: number[], build: string) => ({
    name: `${build}.json`,
    mimeType: "application/json",
    buffer: Buffer.from(
      JSON.stringify({
        schema: "mg-bench/2",
        date: "2026-11-27T00:00:00.000Z",
        userAgent: "test",
        cpus: 2,
        crossOriginIsolated: true,
        timerStepUs: 5,
        simdSupported: true,
        build,
        size: "full",
        settings: { thresholdPct: 5, caseLimitMs: 3000, minSamples: 10, maxSamples: 2000 },
        cases: [
          {
            kernel: "quat rotate",
            impl: "wasm SIMD",
            shape: "zero-copy",
            medianNs: ns[5],
            p75Ns: 0,
            p99Ns: 0,
            meanNs: 0,
            opsPerSec: 0,
            rmePct: 0,
            samples: ns.length,
            opsPerSample: 1,
            samplesNs: ns,
          },
        ],
      }),
    ),
  });
  await page.goto("/bench");
  // A file picked before React has taken the page over would be read by nobody.
  await hydrated(page);
  await page
    .getByLabel("Result file A")
    .setInputFiles(run([5, 5.1, 4.9, 5, 5.2, 5, 4.8, 5.1, 5, 4.9], "runner-a.js"));
  await page
    .getByLabel("Result file B")
    .setInputFiles(run([2.5, 2.6, 2.4, 2.5, 2.5, 2.55, 2.45, 2.5, 2.6, 2.4], "runner-b.js"));
  const changes = page.getByTestId("bench-changes");
  await expect(changes.locator("tbody tr")).toHaveCount(1);
  await expect(changes.locator("tbody tr")).toHaveAttribute("data-verdict", "faster");
  await expect(changes).toContainText(/faster, −50\.\d % \(−5\d\.\d % to −4\d\.\d %\)/);
  // Runs without JavaScript rows give no measure of the machine's drift: said, and nothing taken out.
  await expect(page.getByTestId("bench-drift")).toHaveText(
    "Machine speed: the runs share no JavaScript row to measure it by; times as measured.",
  );
  await expect(page.getByRole("table").filter({ hasText: "Page version" })).toContainText(
    "runner-b.js",
  );
  expect(await axeViolations(page)).toEqual([]);
  await lookAt(page, "bench-compare-1280", { fullPage: true });
  await page.setViewportSize({ width: 375, height: 740 });
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await lookAt(page, "bench-compare-375", { fullPage: true });

  await page.getByLabel("Result file A").setInputFiles({
    name: "not.json",
    mimeType: "application/json",
    buffer: Buffer.from("{]"),
  });
  await expect(page.getByRole("alert")).toHaveText("not.json is not JSON.");
});

test("/bench?case=&impl=&seconds= runs one case continuously, each sample a User Timing measure", async ({
  page,
}) => {
  await page.goto("/bench?case=frame%3A%20molecule&impl=wasm%20SIMD&seconds=1");
  const run = page.getByRole("button", { name: "Run", exact: true });
  await expect(run).toBeEnabled();
  await run.click();
  await expect(page.getByRole("status")).toContainText(
    "Ran frame: molecule, wasm SIMD (per frame) for 1 s",
    { timeout: 30_000 },
  );
  const measures = await page.evaluate(
    () => performance.getEntriesByName("mg-bench frame: molecule | wasm SIMD | per frame").length,
  );
  expect(measures).toBeGreaterThan(10);
});
