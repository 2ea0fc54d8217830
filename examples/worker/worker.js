// A module worker with no bundler: the web build, imported by path, fetches its .wasm next to it.
import initGraphics, * as graphics from "../node_modules/mg-core/graphics/web/mg_core_graphics.js";
import initSimd, * as graphicsSimd from "../node_modules/mg-core/graphics/simd/web/mg_core_graphics_simd.js";
import initCore, * as core from "../node_modules/mg-core/web/mg_core.js";
import { driveMachines, fillHypercube } from "../common/check.mjs";

try {
  await Promise.all([initCore(), initGraphics(), initSimd()]);
  postMessage({
    ok: true,
    lines: [driveMachines(core), fillHypercube(graphics), `simd128: ${fillHypercube(graphicsSimd)}`],
  });
} catch (error) {
  postMessage({ ok: false, error: String(error?.stack ?? error) });
}
