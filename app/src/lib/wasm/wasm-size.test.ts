import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

// docs/quality.md's budget for each .wasm the app loads: 40 KB gzip. Measured here on the built
// package (../target/npm/mg-core, `make package`), the bundler build the app imports, with zlib at
// level 9 (a few hundred bytes above `gzip -9`, which docs/performance.md quotes). The package's own
// checks (examples/package-checks.mjs) hold the graphics .wasm to a tighter 25 KB.
const BUDGET = 40 * 1024;
const pkg = "../../../../target/npm/mg-core/";
const packages = {
  "machines (mg-core, bundler/mg_core_bg.wasm)": `${pkg}bundler/mg_core_bg.wasm`,
  "graphics (mg-core/graphics, graphics/bundler/mg_core_graphics_bg.wasm)": `${pkg}graphics/bundler/mg_core_graphics_bg.wasm`,
  "status page (mg-core/status, status/bundler/mg_core_status_bg.wasm)": `${pkg}status/bundler/mg_core_status_bg.wasm`,
};

describe("the wasm packages stay within the 40 KB gzip budget", () => {
  for (const [name, path] of Object.entries(packages)) {
    it(name, () => {
      const wasm = readFileSync(fileURLToPath(new URL(path, import.meta.url)));
      expect(gzipSync(wasm, { level: 9 }).length).toBeLessThanOrEqual(BUDGET);
    });
  }
});
