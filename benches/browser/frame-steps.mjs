// One widget's frames in Node (V8), for counting instructions under valgrind, which load from other
// work on the machine does not change (timings on a shared machine do):
//
//   node benches/browser/frame-steps.mjs <scalar|simd> <icosahedron|hypercube|helix|molecule> <frames>
//
// builds the widget from the package in pkg/ (`make package`; PKG picks another unpacked package),
// runs 5,000 untimed frames (V8 compiles the hot code with its optimising tier), then <frames> more.
// x86 instructions per frame: run it under `valgrind --tool=cachegrind --cache-sim=no` with 100,000
// frames and with 0, and divide the difference of the two "I refs" by 100,000 (docs/performance.md).
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg =
	process.env.PKG ?? fileURLToPath(new URL("../../pkg", import.meta.url));
const [build, scene, frames] = process.argv.slice(2);
const entry =
	build === "simd" ? "graphics/simd/node/index.js" : "graphics/node/index.js";
const g = await import(join(pkg, entry));
const widgets = {
	// The /bench page's seed.
	icosahedron: () => new g.IcosahedronWidget(7),
	hypercube: () => new g.HypercubeWidget(),
	helix: () => new g.HelixWidget(),
	molecule: () => new g.MoleculeWidget(),
};
if (!widgets[scene] || !(Number(frames) >= 0)) {
	console.error(
		"usage: frame-steps.mjs <scalar|simd> <icosahedron|hypercube|helix|molecule> <frames>",
	);
	process.exit(2);
}
const widget = widgets[scene]();
for (let i = 0; i < 5_000; i += 1) widget.step();
for (let i = 0; i < Number(frames); i += 1) widget.step();
widget.free();
