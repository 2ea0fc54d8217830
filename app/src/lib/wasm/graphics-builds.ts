// Both builds of the graphics part of the wasm package side by side, for the /bench page, which
// times one against the other: `mg-core/graphics` (scalar) and `mg-core/graphics/simd`. Features
// reach the wasm only through this folder (app/biome.json); only the bench's chunk imports this
// module, so no other page downloads a build through it (the widgets load one, src/graphics/wasm.ts).
export * as scalar from "mg-core/graphics";
export * as simd from "mg-core/graphics/simd";
