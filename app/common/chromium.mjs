// How every headless Chromium of the project starts: the end-to-end tests (app/playwright.config.ts)
// and the package matrix (examples/run-matrix.mjs) in the headless shell (`testChromiumLaunchOptions`),
// the benches (benches/browser/) and the first-visit measure (app/scripts/first-visit.mjs) in the
// full browser (`chromiumLaunchOptions`). Each passes these to its own playwright-core's
// `chromium.launch()`. Debian's builds, because Playwright cannot download its own browser here;
// CHROMIUM_PATH picks another binary for both. core-wasm/webdriver.json gives chromedriver the same binary and
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

/** The options of playwright-core's `chromium.launch()`: the full browser, as users run it. */
export const chromiumLaunchOptions = { executablePath: chromiumPath, args: chromiumArgs };

/** Debian's chromium-headless-shell: the tests' browser. */
export const headlessShellPath = "/usr/bin/chromium-headless-shell";

/**
 * The browser tests' launch: Chromium's headless shell, the same Blink and V8 of the same release
 * without the full browser's window layer (what Playwright itself launches for headless tests). The
 * pages render as in the full browser; the shell spends about 40% less CPU doing it (the e2e page and
 * sign-in specs: 103 CPU seconds against 180), and the browser is most of the tests' CPU on two cores.
 * It is always headless, so the full browser's `--headless=new` is left out.
 */
export const testChromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? headlessShellPath,
  args: chromiumArgs.filter((arg) => !arg.startsWith("--headless")),
};
