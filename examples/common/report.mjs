// Browser fixtures publish their outcome here; run-matrix.mjs reads `window.__fixture`.
export async function report(run) {
  try {
    globalThis.__fixture = { ok: true, lines: await run() };
  } catch (error) {
    globalThis.__fixture = { ok: false, error: String(error?.stack ?? error) };
  }
  document.title = globalThis.__fixture.ok ? "pass" : "fail";
}
