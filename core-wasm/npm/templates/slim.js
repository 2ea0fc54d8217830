// __PKG__ without a .wasm of its own: nothing is fetched or bundled until the caller hands the module
// over with `initialize(url | bytes | WebAssembly.Module)` (or `initSync(bytes | WebAssembly.Module)`).
import init from "./__NAME__.js";

export * from "./__NAME__.js";

/**
 * Instantiates the wasm from what the caller gives: a URL (fetched once, here), a `Response` or its
 * promise, the bytes, or a compiled `WebAssembly.Module`. Resolves when the classes can be used.
 */
export async function initialize(source) {
  if (source === undefined || source === null) {
    throw new TypeError(
      "__PKG__ slim: initialize() needs the .wasm as a URL, a Response, bytes or a WebAssembly.Module; it never fetches by itself",
    );
  }
  const input = typeof source === "string" || source instanceof URL ? fetch(source) : source;
  await init({ module_or_path: input });
}
