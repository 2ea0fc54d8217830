import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

// QUALITY.md's budget for each core-wasm package: 40 KB gzip; the two builds of the graphics package
// (scalar and simd128, which also carry the bench page's kernels) have a tighter one of 25 KB each.
// Measured here on the built packages (../pkg, `make app`) with zlib at level 9 (a few hundred bytes
// above `gzip -9`, which the README quotes).
const KB = 1024;
const packages = {
  "machines (pkg/mg_core_bg.wasm)": { path: "../../../../pkg/mg_core_bg.wasm", budget: 40 * KB },
  "graphics, scalar (pkg/graphics/mg_core_graphics_bg.wasm)": {
    path: "../../../../pkg/graphics/mg_core_graphics_bg.wasm",
    budget: 25 * KB,
  },
  "graphics, simd128 (pkg/graphics-simd/mg_core_graphics_bg.wasm)": {
    path: "../../../../pkg/graphics-simd/mg_core_graphics_bg.wasm",
    budget: 25 * KB,
  },
};

describe("the wasm packages stay within their gzip budgets", () => {
  for (const [name, { path, budget }] of Object.entries(packages)) {
    it(name, () => {
      const wasm = readFileSync(fileURLToPath(new URL(path, import.meta.url)));
      expect(gzipSync(wasm, { level: 9 }).length).toBeLessThanOrEqual(budget);
    });
  }

  it("the simd128 build uses SIMD instructions and the scalar one none", () => {
    // 0xfd prefixes every SIMD opcode. A crude but sufficient tell: the SIMD build has many such
    // bytes (173 when this was written), the scalar one only the few that occur by chance in data and
    // immediates (24).
    const count = (path: string) =>
      readFileSync(fileURLToPath(new URL(path, import.meta.url))).filter((byte) => byte === 0xfd)
        .length;
    const simd = count(
      packages["graphics, simd128 (pkg/graphics-simd/mg_core_graphics_bg.wasm)"].path,
    );
    const scalar = count(packages["graphics, scalar (pkg/graphics/mg_core_graphics_bg.wasm)"].path);
    expect(simd).toBeGreaterThan(3 * scalar);
  });
});
