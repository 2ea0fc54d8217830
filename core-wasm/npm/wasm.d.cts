// The types of the `.wasm` subpaths under require(): the file's URL, as bundlers that treat a .wasm
// as an asset give it (webpack's `asset/resource`).
declare const url: string;
export = url;
