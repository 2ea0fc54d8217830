// The machine a bench ran on, as the reports write it beside their results.
import { readFile } from "node:fs/promises";
import { cpus } from "node:os";

async function cpuModel() {
  try {
    const info = await readFile("/proc/cpuinfo", "utf8");
    return /model name\s*:\s*(.+)/.exec(info)?.[1]?.trim() ?? cpus()[0]?.model ?? "unknown";
  } catch {
    return cpus()[0]?.model ?? "unknown";
  }
}

/** `{ nproc, cpu }`: how many CPUs, and their model name. */
export async function thisMachine() {
  return { nproc: cpus().length, cpu: await cpuModel() };
}
