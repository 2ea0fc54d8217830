// The Next.js fixture (examples/next): `next build` (Turbopack, or webpack with --webpack) then
// `next start`, or `next dev` with either bundler, then the page in Chromium: the server's HTML (a
// server component ran the graphics), the theme applied before hydration and owned by the machine
// after it, the Wisdom button through the route handler, and not one console error or hydration
// warning.
import { join } from "node:path";
import { startServer } from "./server.mjs";

/**
 * `mode`: "turbopack" or "webpack"; `dev`: `next dev` instead of `next build` and `next start`.
 * `run` and `bin` are the matrix's; `newPage` gives a Playwright page.
 */
export async function nextFixture({ mode, dev = false, here, run, bin, newPage }) {
  const dir = join(here, "next");
  const flags = mode === "webpack" ? ["--webpack"] : [];
  const build = dev ? "" : await run(bin("next"), ["build", ...flags], "next", 600_000);
  // `next dev` compiles the page at its first request, so the first answer waits for that.
  const server = await startServer({
    command: bin("next"),
    args: (port) => [dev ? "dev" : "start", ...(dev ? flags : []), "-p", String(port), "-H", "127.0.0.1"],
    cwd: dir,
    timeoutMs: dev ? 300_000 : 60_000,
  });
  const { origin } = server;
  const tab = await newPage();
  const errors = [];
  tab.on("pageerror", (error) => errors.push(String(error)));
  tab.on("response", (response) => response.status() >= 400 && errors.push(`${response.status()} ${response.url()}`));
  tab.on("console", (message) => {
    if (message.type() === "error" || /hydrat/i.test(message.text())) errors.push(message.text());
  });
  try {
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
    if (/error/i.test(server.log())) throw new Error(`next logged an error:\n${server.log()}`);
    const how = dev
      ? `next dev${flags.map((flag) => ` ${flag}`).join("")}`
      : `next build${flags.map((flag) => ` ${flag}`).join("")} (${/Compiled successfully in [\d.]+m?s/.exec(build)?.[0] ?? "built"}), next start`;
    return `${how}: server graphics, theme before hydration, wisdom via the route handler, no console error`;
  } finally {
    await tab.close();
    server.stop();
  }
}
