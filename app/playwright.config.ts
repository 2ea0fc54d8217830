import { defineConfig } from "@playwright/test";

// End-to-end tests run in Debian's Chromium (Playwright cannot download its own browser here)
// against the real server binary serving the built app on a fresh SQLite database.
const port = Number(process.env.E2E_PORT ?? 4173);

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export default defineConfig({
  testDir: "e2e",
  // Per-port output folders let two runs (say, a developer and CI) share a checkout.
  outputDir: `test-results/${port}`,
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [["list"]],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: chromiumArgs,
    },
    trace: "retain-on-failure",
  },
  webServer: {
    command: `bash e2e/start-server.sh ${port}`,
    url: `http://127.0.0.1:${port}/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
