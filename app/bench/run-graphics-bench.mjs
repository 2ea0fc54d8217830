// Runs bench/graphics-bench.html in headless Chromium (served by Vite so the wasm package
// resolves) and prints wasm vs plain-JS time per frame for each widget's math.
// Usage: node bench/run-graphics-bench.mjs [--frames N] [--rounds N]
// Exits non-zero if the wasm path is slower than plain JS for any widget.

import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { createServer } from "vite";

const appDir = fileURLToPath(new URL("..", import.meta.url));
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

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
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
