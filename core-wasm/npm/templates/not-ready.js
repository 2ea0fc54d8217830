// mg-core: before init() the glue's `wasm` is this, so a call names what to do instead of failing
// inside the glue (added by build.sh).
const __mgClasses = __CLASS_MAP__;
const __mgNotReady = new Proxy({}, {
  get(_, key) {
    const prefix = typeof key === "string" ? key.split("_")[0] : "";
    const what = __mgClasses[prefix] ?? (typeof key === "string" && !key.startsWith("__") ? key : "its classes and functions");
    throw new Error(`__PKG__: call \`await init()\` from '__PKG__/web' (or initialize() from '__PKG__/slim') before using ${what}`);
  },
});
