// A fixture's own server (a dev server, `next start`): started on a free port of 127.0.0.1, awaited
// until it answers, stopped with its whole process group (dev servers start workers of their own).
import { spawn } from "node:child_process";
import { createServer } from "node:net";

export const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

// Every server started and not yet stopped, by process group: each runs in its own group (detached,
// so that stop() reaches its workers), which also puts it out of reach of a Ctrl-C or a SIGTERM sent
// to the matrix. The matrix stops them itself when it exits or is told to.
const running = new Set();
const stopGroup = (pid) => {
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    // already gone
  }
};
process.once("exit", () => running.forEach(stopGroup));
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.once(signal, () => process.exit(code));
}

export async function until(what, check, timeoutMs) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Runs `command` with `args(port)` in `cwd` and resolves once GET `path` answers 200:
 * { origin, log(), stop() }. A server that exits first rejects with its output.
 */
export async function startServer({ command, args, cwd, path = "/", timeoutMs = 60_000, env = {} }) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // Without the caller's NODE_ENV: a bundler run in this process (Vite's build() sets it to
  // `production`) would otherwise turn a dev server into a production one.
  const { NODE_ENV, ...inherited } = process.env;
  const child = spawn(command, args(port), {
    cwd,
    detached: true,
    env: { ...inherited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child.pid);
  let output = "";
  let exited = null;
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  child.on("exit", (code, signal) => (exited = signal ?? code));
  const stop = () => {
    running.delete(child.pid);
    stopGroup(child.pid);
  };
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await fetch(origin + path).then((res) => res.ok, () => false)) break;
    if (exited !== null || Date.now() > end) {
      stop();
      const why = exited !== null ? `exited ${exited}` : `no answer within ${timeoutMs / 1000} s`;
      throw new Error(`${command} ${args(port).join(" ")}: ${why}:\n${output.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { origin, log: () => output, stop };
}
