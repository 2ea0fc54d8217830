// How every headless Chromium of the project starts: the end-to-end tests (app/playwright.config.ts),
// the benches (benches/browser/), the first-visit measure (app/scripts/first-visit.mjs) and the
// package matrix (examples/run-matrix.mjs). Each passes these to its own playwright-core's
// `chromium.launch()`. Debian's Chromium, because Playwright cannot download its own browser here;
// CHROMIUM_PATH picks another. core-wasm/webdriver.json gives chromedriver the same binary and
// arguments for the wasm browser tests (JSON, so it cannot import them; chromium.test.ts holds the two
// equal).

export const defaultChromiumPath = "/usr/bin/chromium";

/** The browser binary: CHROMIUM_PATH, else Debian's Chromium. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? defaultChromiumPath;

/**
 * Headless, with no sandbox (Chromium's sandbox does not start as root, which is how the tests run
 * on the project's machines), no GPU (rendering in software), /tmp rather than a small /dev/shm,
 * and none of the browser's own traffic (updates, sync, first-run pages), which would only add noise
 * to timings and to the requests a page is seen to make.
 */
export const chromiumArgs = [
  "--no-sandbox",
  "--headless=new",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The options of playwright-core's `chromium.launch()`. */
export const chromiumLaunchOptions = { executablePath: chromiumPath, args: chromiumArgs };
