// A `?worker` (Vite's default worker format, iife: no top-level await, so the web builds and their
// init()). The message handler is installed at once and waits for the wasm, so a message posted
// right after `new Worker()` is answered rather than lost; the README's worker example is this.
import initCore, * as core from "mg-core/web";
import initGraphics, * as graphics from "mg-core/graphics/web";
import { driveMachines, fillHypercube } from "../common/check.mjs";

const ready = Promise.all([initCore(), initGraphics()]);

onmessage = async ({ data }) => {
  try {
    await ready;
    postMessage({ ok: true, lines: [`worker, message "${data}": ${driveMachines(core)}`, `worker: ${fillHypercube(graphics)}`] });
  } catch (error) {
    postMessage({ ok: false, error: String(error?.stack ?? error) });
  }
};
