import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

// docs/quality.md's budget for each core-wasm package: 40 KB gzip. Measured here on the built
// packages (pkg/, `make app`) with zlib at level 9 (a few hundred bytes above `gzip -9`, which
// docs/performance.md quotes).
const BUDGET = 40 * 1024;
const packages = {
  "machines (pkg/mg_core_bg.wasm)": "../../../../pkg/mg_core_bg.wasm",
  "graphics (pkg/graphics/mg_core_graphics_bg.wasm)":
    "../../../../pkg/graphics/mg_core_graphics_bg.wasm",
};

describe("the wasm packages stay within the 40 KB gzip budget", () => {
  for (const [name, path] of Object.entries(packages)) {
    it(name, () => {
      const wasm = readFileSync(fileURLToPath(new URL(path, import.meta.url)));
      expect(gzipSync(wasm, { level: 9 }).length).toBeLessThanOrEqual(BUDGET);
    });
  }
});
