// Whether this browser runs wasm SIMD, decided without loading either graphics build: the widgets'
// loader (wasm.ts) and the /bench page both ask.

/**
 * The smallest module that uses a SIMD instruction: one function `() -> v128` whose body is
 * `i32.const 0; i8x16.splat; i8x16.popcnt`. `WebAssembly.validate` accepts it only where wasm SIMD is
 * supported (the same probe as the wasm-feature-detect library's).
 */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15,
  253, 98, 11,
]);

/** Whether this browser runs wasm SIMD (`simd128`). */
export function simdSupported(): boolean {
  try {
    return typeof WebAssembly === "object" && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}
