// `make bench-graphics`: runs app/bench/graphics-bench.html in headless Chromium and prints wasm vs
// plain-JS time per frame for each widget's math. The page stays in the app, served by the app's
// Vite (its config and root), because it imports the app's plain-JS scenes and the wasm package as
// the app resolves them; Vite and playwright-core are the app's (app/node_modules) too.
// Usage: node benches/browser/run-graphics-bench.mjs [--frames N] [--rounds N]
// Exits non-zero if the wasm path is slower than plain JS for any widget.

import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromiumLaunchOptions } from "../../app/common/chromium.mjs";

const appDir = fileURLToPath(new URL("../../app", import.meta.url));
const fromApp = createRequire(join(appDir, "package.json"));
const { chromium } = fromApp("playwright-core");
const { createServer } = await import(pathToFileURL(fromApp.resolve("vite")).href);
const argument = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const frames = argument("frames", 20_000);
const rounds = argument("rounds", 7);

const server = await createServer({
  root: appDir,
  configFile: `${appDir}/vite.config.ts`,
  logLevel: "error",
  server: { port: 0, strictPort: false, host: "127.0.0.1" },
});
await server.listen();
const address = server.httpServer?.address();
const port = typeof address === "object" && address ? address.port : 0;

const browser = await chromium.launch(chromiumLaunchOptions);
let failed = false;
try {
  const page = await browser.newPage();
  page.on("pageerror", (error) => console.error(error));
  await page.goto(`http://127.0.0.1:${port}/bench/graphics-bench.html`);
  await page.waitForFunction(() => window.graphicsBenchReady === true, null, { timeout: 60_000 });
  const results = await page.evaluate((options) => window.runGraphicsBench(options), {
    frames,
    rounds,
  });
  const version = browser.version();
  console.log(`Chromium ${version}, ${frames} frames x ${rounds} rounds, median ns per frame\n`);
  console.log("| widget | wasm (ns/frame) | plain JS (ns/frame) | JS / wasm |");
  console.log("|---|---:|---:|---:|");
  for (const { scene, wasmNs, jsNs, ratio } of results) {
    console.log(`| ${scene} | ${wasmNs.toFixed(0)} | ${jsNs.toFixed(0)} | ${ratio.toFixed(2)}x |`);
    if (ratio < 1) failed = true;
  }
  if (failed) console.error("\nThe wasm path lost to plain JS for at least one widget.");
} finally {
  await browser.close();
  await server.close();
}
process.exitCode = failed ? 1 : 0;
