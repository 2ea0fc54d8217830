// The Next.js fixture (examples/next): `next build` (Turbopack, or webpack with --webpack), then
// `next start`, then the page in Chromium: the server's HTML (a server component ran the graphics),
// the theme applied before hydration and owned by the machine after it, the Wisdom button through the
// route handler, and not one console error or hydration warning.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

async function until(what, check, timeoutMs) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** `mode`: "turbopack" or "webpack". `run` and `bin` are the matrix's; `newPage` gives a Playwright page. */
export async function nextFixture({ mode, here, run, bin, newPage }) {
  const dir = join(here, "next");
  const build = await run(bin("next"), mode === "webpack" ? ["build", "--webpack"] : ["build"], "next", 600_000);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = spawn(bin("next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  server.stdout.on("data", (chunk) => (log += chunk));
  server.stderr.on("data", (chunk) => (log += chunk));
  const tab = await newPage();
  const errors = [];
  tab.on("pageerror", (error) => errors.push(String(error)));
  tab.on("response", (response) => response.status() >= 400 && errors.push(`${response.status()} ${response.url()}`));
  tab.on("console", (message) => {
    if (message.type() === "error" || /hydrat/i.test(message.text())) errors.push(message.text());
  });
  try {
    await until("next start", async () => (await fetch(origin)).ok, 60_000);
    const html = await (await fetch(origin)).text();
    if (!html.includes("server hypercube: <!-- -->64<!-- --> floats") && !html.includes("server hypercube: 64 floats"))
      throw new Error(`the server component's graphics are not in the HTML:\n${html.slice(0, 2000)}`);
    await tab.goto(origin);
    await tab.waitForFunction(() => !document.querySelector("#theme")?.disabled, undefined, { timeout: 30_000 });
    const before = await tab.evaluate(() => [document.documentElement.dataset.theme, document.querySelector("#theme").textContent]);
    if (before.join() !== "cosmic,theme: cosmic") throw new Error(`theme at start: ${before}`);
    await tab.click("#theme");
    await tab.waitForFunction(() => document.documentElement.dataset.theme === "void" && localStorage.getItem("theme") === "void");
    // A reload: the stored theme is on <html> before any of React's scripts ran (no flash), then the
    // machine's.
    await tab.reload({ waitUntil: "commit" });
    await tab.waitForSelector("#theme", { state: "attached" });
    const painted = await tab.evaluate(() => document.documentElement.dataset.theme);
    if (painted !== "void") throw new Error(`theme before hydration after a reload: ${painted}`);
    await tab.waitForFunction(() => document.querySelector("#theme")?.textContent === "theme: void", undefined, { timeout: 30_000 });
    await tab.click("#wisdom");
    await tab.waitForFunction(() => document.querySelector("#quote")?.textContent === "Know thyself. (Socrates)", undefined, { timeout: 30_000 });
    if (errors.length) throw new Error(`console errors: ${errors.join(" | ")}`);
    if (/error/i.test(log)) throw new Error(`next start logged an error:\n${log}`);
    const compiled = /Compiled successfully in [\d.]+m?s/.exec(build)?.[0] ?? "built";
    return `next build${mode === "webpack" ? " --webpack" : ""} (${compiled}), next start: server graphics, theme before hydration, wisdom via the route handler, no console error`;
  } finally {
    await tab.close();
    server.kill();
  }
}
