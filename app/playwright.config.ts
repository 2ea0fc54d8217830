import { defineConfig } from "@playwright/test";
import { testChromiumLaunchOptions } from "./common/chromium.mjs";

// End-to-end tests run in Debian's Chromium headless shell, launched as the package matrix's browser
// is (common/chromium.mjs: Playwright cannot download its own browser here),
// against the real server binary serving the built app on a fresh SQLite database.
// Four servers run, one per setup the browser must see for itself (spec 2.1 and 2.2): the default
// one (sanctified, with the identity emulator, also serving the graphics harness page) on E2E_PORT;
// open mode (SANCTIFIED=false) on E2E_PORT + 100; sanctified without an identity project on
// E2E_PORT + 200; and an ethereal deployment (apotheosis type, ethereal flag) on E2E_PORT + 300. What
// differs between the other deployment types and flags is proven below the browser: which prerendered
// variant the server picks (server/tests/api/prerendered/variants.rs) and what the landing page shows
// for each (src/features/landing/landing-page.test.tsx). The offsets keep clear of the neighbouring
// E2E_PORT values that parallel runs on one machine tend to pick.
const port = Number(process.env.E2E_PORT ?? 4173);
const openPort = port + 100;
const unconfiguredPort = port + 200;
const etherealPort = port + 300;
const origin = (p: number) => `http://127.0.0.1:${p}`;
const server = (p: number, mode: string) => ({
  command: `bash e2e/start-server.sh ${p} ${mode}`,
  url: `${origin(p)}/health`,
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: "ignore" as const,
  stderr: "pipe" as const,
  // SIGTERM first, so start-server.sh stops its server and removes its database folder.
  gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
});
// The status page's rounds and history are read where no operator can post (open mode has no
// sign-in): a post by a test running beside them changes the notices (the page then asks again at
// once, and an open incident changes what the history says).
const openModeSpecs = /(open-mode|status-rounds|status-history)\.spec\.ts$/;
const otherSetups =
  /(open-mode|status-rounds|status-history|unconfigured|deployment-types|graphics|no-js)\.spec\.ts$/;
export default defineConfig({
  testDir: "e2e",
  // Per-port output folders let two runs (say, a developer and CI) share a checkout.
  outputDir: `test-results/${port}`,
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  // In CI a test that fails is run once more: the browser tests share two cores with the Rust
  // compiler there, and one timing-sensitive miss should not hide the run's result. A test that
  // passes only on its second try is still reported (Playwright's "flaky" list, which
  // scripts/test-all.sh repeats in its last lines), so it gets fixed rather than forgotten; one that
  // fails twice fails the run. Locally a failure is a failure at once.
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  timeout: 30_000,
  use: {
    baseURL: origin(port),
    browserName: "chromium",
    launchOptions: testChromiumLaunchOptions,
    // Recording a trace costs about a tenth of the suite's CPU; E2E_TRACE=1 keeps one per failed test.
    trace: process.env.E2E_TRACE ? "retain-on-failure" : "off",
    // The decorative widgets animate at the display's frame rate in software WebGL here, which costs
    // about 40% of a core for every open page while a test waits. Under reduced motion each draws
    // one still frame; the specs about motion itself (graphics*.spec.ts) ask for it back.
    reducedMotion: "reduce",
  },
  projects: [
    { name: "sanctified", testIgnore: otherSetups },
    { name: "open-mode", testMatch: openModeSpecs, use: { baseURL: origin(openPort) } },
    {
      name: "unconfigured",
      testMatch: /unconfigured\.spec\.ts$/,
      use: { baseURL: origin(unconfiguredPort) },
    },
    // The default server's prerendered pages with JavaScript off (readable without it).
    { name: "no-js", testMatch: /no-js\.spec\.ts$/, use: { javaScriptEnabled: false } },
    // Visits the default server and the ethereal one by their absolute origins (deployment-types.spec.ts).
    { name: "deployments", testMatch: /deployment-types\.spec\.ts$/ },
    // The graphics harness page (/graphics.html) on the default server, its widgets in motion.
    { name: "graphics-harness", testMatch: /graphics\.spec\.ts$/ },
  ],
  webServer: [
    server(port, "sanctified"),
    server(openPort, "open"),
    server(unconfiguredPort, "unconfigured"),
    server(etherealPort, "ethereal-flag"),
  ],
});
