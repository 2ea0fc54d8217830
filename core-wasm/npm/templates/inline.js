// __PKG__ with its .wasm inlined (base64, decoded and compiled when this module loads): for bundlers
// and runtimes that cannot load a .wasm file (esbuild, Rollup, Parcel, webpack without its
// asyncWebAssembly, Jest), and for dev servers, whose dependency pre-bundlers handle a plain ES
// module where they break the bundler build. The same API as every other entry; ready once imported.
import { initSync } from "../slim/__NAME__.js";
import base64 from "./__NAME___wasm.js";

initSync({ module: Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)) });

export * from "../slim/__NAME__.js";
// The web build's init(), for `__PKG__/web` under the `development` condition (dev servers get this
// build): nothing left to do, it resolves with the module's exports.
export { default } from "../slim/__NAME__.js";
