# The fixture's workerd configuration: one Worker, the bundle esbuild wrote to dist/ and the two
# .wasm files it imports, each a `wasm` module (what Wrangler's default rule makes of `*.wasm`).
# The socket's address is given on the command line (--socket-addr http=127.0.0.1:<port>).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "dist/worker.js"),
    (name = "mg_core_bg.wasm", wasm = embed "dist/mg_core_bg.wasm"),
    (name = "mg_core_graphics_bg.wasm", wasm = embed "dist/mg_core_graphics_bg.wasm"),
  ],
  compatibilityDate = "2026-11-01",
);
