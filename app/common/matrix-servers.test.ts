// @vitest-environment node
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";

// examples/common/server.mjs (the package matrix's fixture servers: next dev, vite, ...): each runs in
// a process group of its own, out of reach of a signal sent to the matrix, so the matrix must stop
// them itself when it is interrupted. A stand-in matrix starts one stand-in server (a Node HTTP
// server that writes its pid) and is then sent the signal; the server must be gone after it.
const serverModule = new URL("../../examples/common/server.mjs", import.meta.url).href;

const roots: string[] = [];
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone, as it should be
    }
  }
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it.each([
  ["SIGTERM", 143],
  ["SIGINT", 130],
] as const)(
  "an interrupted matrix (%s) stops the servers it started",
  async (signal, code) => {
    const root = mkdtempSync(join(tmpdir(), "matrix-servers-"));
    roots.push(root);
    const pidFile = join(root, "server.pid");
    const standIn = `require("node:fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
require("node:http").createServer((_, res) => res.end("ok")).listen(Number(process.argv[1]), "127.0.0.1");`;
    const matrix = join(root, "matrix.mjs");
    writeFileSync(
      matrix,
      `import { startServer } from ${JSON.stringify(serverModule)};
await startServer({ command: process.execPath, args: (port) => ["-e", ${JSON.stringify(standIn)}, String(port)], cwd: ${JSON.stringify(root)} });
console.log("up");
setInterval(() => {}, 1000);
`,
    );
    const child = spawn(process.execPath, [matrix], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk) => String(chunk).includes("up") && resolve());
      child.on("exit", () =>
        reject(new Error("the stand-in matrix exited before its server was up")),
      );
    });
    const server = Number(readFileSync(pidFile, "utf8"));
    leftovers.push(server);
    expect(alive(server)).toBe(true);

    child.kill(signal);
    const status = await exited;
    await expect
      .poll(() => alive(server), { message: "the server left running", timeout: 5_000 })
      .toBe(false);
    // It ends as a process ended by that signal would (128 + its number).
    expect(status).toBe(code);
  },
  20_000,
);
