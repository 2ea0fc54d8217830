// A Cloudflare Worker, run in the workerd binary: `mg-core` and `mg-core/graphics` resolved through
// their `workerd` export condition, used while answering a request. They are imported on the first
// request rather than at startup: once its startup is over a Worker may not compile WebAssembly from
// bytes (the inlined build fails there), so this passes only with a .wasm the runtime compiled as a
// module. GET / answers 200 with what it did, or 500 with the error.
import { driveMachines, fillHypercube } from "../common/check.mjs";

export default {
  async fetch() {
    try {
      const [core, graphics] = await Promise.all([import("mg-core"), import("mg-core/graphics")]);
      return new Response(`${driveMachines(core)}\n${fillHypercube(graphics)}\n`);
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
