// Type-checked only (tsc, strict), under Node's and bundlers' module resolution: every entry's types
// resolve through the package's `exports`, and the shapes a caller relies on are what they say.
import { ThemeMachine, type Theme, WisdomMachine, type WisdomSnapshot } from "mg-core";
import { HypercubeWidget, wasmMemory } from "mg-core/graphics";
import { HypercubeWidget as SimdHypercubeWidget } from "mg-core/graphics/simd";
import { initialize as initializeGraphics } from "mg-core/graphics/slim";
import initSimd from "mg-core/graphics/simd/web";
import { initialize, initSync } from "mg-core/slim";
import init, { type InitOutput, ThemeMachine as WebThemeMachine } from "mg-core/web";
import { type MachineSpec, machineStore, themeScript } from "mg-core/react";
import wasmUrl from "mg-core/mg_core_bg.wasm";
import { ThemeMachine as InlineThemeMachine } from "mg-core/inline";

const theme: Theme = new ThemeMachine(undefined).toggle();
const wisdom = new WisdomMachine();
const snapshot: WisdomSnapshot = wisdom.snapshot();
const deadline: number | undefined = wisdom.nextDeadline();
wisdom[Symbol.dispose]();
const cube = new HypercubeWidget();
const memory: WebAssembly.Memory = wasmMemory();
const vertices = new Float32Array(memory.buffer, cube.verticesPtr(), cube.verticesLen());
const ready: Promise<InitOutput> = init();
const slim: Promise<void> = initialize(new URL("https://example.invalid/mg_core_bg.wasm"));
const graphics: Promise<void> = initializeGraphics(new Uint8Array(0));
const simdCube: HypercubeWidget = new SimdHypercubeWidget();
const simdReady = initSimd();
const sync: InitOutput = initSync({ module: new Uint8Array(0) });
const web: Theme = new WebThemeMachine("void").theme;

// @ts-expect-error snapshots are typed: a WisdomSnapshot has no `phase`
snapshot.phase;
// @ts-expect-error the bundler and Node entries need no init, and export none
import("mg-core").then((core) => core.default);

export { theme, deadline, vertices, ready, slim, graphics, simdCube, simdReady, sync, web };

// The .wasm subpaths are typed (a URL), and the React bindings' store takes any machine.
const url: string = wasmUrl;
const spec: MachineSpec<WisdomMachine, WisdomSnapshot> = {
  create: () => new WisdomMachine(),
  read: (machine) => machine.snapshot(),
  initial: () => ({ status: "idle" }),
  due: (machine, now) => machine.tick(now),
};
const store = machineStore(spec);
const script: string = themeScript;
const inline: Theme = new InlineThemeMachine(null).theme;
