import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

// docs/quality.md's budget for each .wasm the app loads: 40 KB gzip; the two builds of the graphics
// (scalar and simd128, which also carry the bench page's kernels) have a tighter one of 25 KB each,
// as in the package's own checks (examples/package-checks.mjs). Measured here on the built package
// (../pkg, `make package`), the bundler build the app imports, with zlib at level 9
// (a few hundred bytes above `gzip -9`, which docs/performance.md quotes).
const KB = 1024;
const pkg = "../../../../pkg/";
const machines = `${pkg}bundler/mg_core_bg.wasm`;
const scalar = `${pkg}graphics/bundler/mg_core_graphics_bg.wasm`;
const simd = `${pkg}graphics/simd/bundler/mg_core_graphics_simd_bg.wasm`;
const packages = {
  "machines (mg-core, bundler/mg_core_bg.wasm)": { path: machines, budget: 40 * KB },
  "graphics, scalar (mg-core/graphics, graphics/bundler/mg_core_graphics_bg.wasm)": {
    path: scalar,
    budget: 25 * KB,
  },
  "graphics, simd128 (mg-core/graphics/simd, graphics/simd/bundler/mg_core_graphics_simd_bg.wasm)":
    { path: simd, budget: 25 * KB },
  "status page (mg-core/status, status/bundler/mg_core_status_bg.wasm)": {
    path: `${pkg}status/bundler/mg_core_status_bg.wasm`,
    budget: 40 * KB,
  },
};

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)));

describe("the wasm packages stay within their gzip budgets", () => {
  for (const [name, { path, budget }] of Object.entries(packages)) {
    it(name, () => {
      expect(gzipSync(read(path), { level: 9 }).length).toBeLessThanOrEqual(budget);
    });
  }

  it("the simd128 build uses SIMD instructions and the scalar one none", () => {
    // 0xfd prefixes every SIMD opcode. A crude but sufficient tell: the SIMD build has many such
    // bytes (173 when this was written), the scalar one only the few that occur by chance in data and
    // immediates (24).
    const count = (path: string) => read(path).filter((byte) => byte === 0xfd).length;
    expect(count(simd)).toBeGreaterThan(3 * count(scalar));
  });
});
