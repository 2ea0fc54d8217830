// Vitest resolving with the `browser` condition (as a browser-targeted project sets it), in jsdom,
// with no wasm plugin: the tests run in Node, where the `node` condition comes first.
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["browser"] },
  test: { environment: "jsdom", include: ["*.test.js"] },
});
