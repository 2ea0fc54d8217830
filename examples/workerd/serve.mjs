// Runs a Worker in the real workerd binary (the `workerd` npm package): bundles it as Wrangler does
// (esbuild, conditions workerd/worker/browser, each .wasm kept as a module file of its own beside the
// bundle), starts `workerd serve <config>` on a free port, and stops it.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { basename, dirname, join } from "node:path";

/** A port nothing listens on now (the kernel's pick for port 0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `entry` is bundled to the file the workerd configuration `config` embeds as its (first) ES module,
 * the .wasm files beside it; the configuration lists them as its modules and has a socket named
 * `http`. Resolves once the Worker answers.
 */
export async function serveWorker({ here, entry, config }) {
  const bundle = /esModule\s*=\s*embed\s+"([^"]+)"/.exec(readFileSync(config, "utf8"))?.[1];
  if (!bundle) throw new Error(`${config} embeds no esModule`);
  // A fresh folder: a .wasm left by an earlier build must not satisfy the configuration.
  rmSync(dirname(join(dirname(config), bundle)), { recursive: true, force: true });
  const { build } = await import("esbuild");
  await build({
    entryPoints: [entry],
    outfile: join(dirname(config), bundle),
    bundle: true,
    format: "esm",
    conditions: ["workerd", "worker", "browser"],
    loader: { ".wasm": "copy" },
    assetNames: "[name]",
    logLevel: "warning",
  });
  const port = await freePort();
  const child = spawn(join(here, "node_modules", ".bin", "workerd"), ["serve", basename(config), `--socket-addr=http=127.0.0.1:${port}`], {
    cwd: dirname(config),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited ${child.exitCode}:\n${output.trim()}`);
    try {
      await fetch(url, { method: "HEAD" });
      return { url, stop, output: () => output.trim() };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`workerd did not answer on ${url} within 15 s:\n${output.trim()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Serves `entry` with `config`, GETs `/`, and returns its body; a status other than 200 throws. */
export async function fetchFromWorker({ here, entry, config }) {
  const worker = await serveWorker({ here, entry, config });
  try {
    const res = await fetch(worker.url);
    const body = (await res.text()).trim();
    if (res.status !== 200) throw new Error(`GET / answered ${res.status}:\n${body}\n${worker.output()}`);
    return body;
  } finally {
    await worker.stop();
  }
}
