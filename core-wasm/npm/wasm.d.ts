// The types of the `.wasm` subpaths (`mg-core/mg_core_bg.wasm`, `mg-core/graphics/mg_core_graphics_bg.wasm`,
// ...): the file's URL, as bundlers that treat a .wasm as an asset give it (webpack's
// `asset/resource`, Parcel's `url:`, Vite's `?url`), for preloads and `initialize()` from `mg-core/slim`.
declare const url: string;
export default url;
