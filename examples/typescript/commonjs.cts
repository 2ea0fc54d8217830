// A CommonJS module of a TypeScript project under Node16 resolution: each import compiles to a
// require(), which resolves to the package's CommonJS builds, typed by their .d.cts (an ES module's
// types here would be error TS1479).
import { ThemeMachine, type Theme } from "mg-core";
import { HypercubeWidget, wasmMemory } from "mg-core/graphics";
import { HypercubeWidget as SimdHypercubeWidget } from "mg-core/graphics/simd";
import { StatusPageMachine } from "mg-core/status";
import init, { type InitOutput, ThemeMachine as WebThemeMachine } from "mg-core/web";
import { initialize } from "mg-core/slim";
import { initialize as initializeGraphics } from "mg-core/graphics/slim";
import { ThemeMachine as InlineThemeMachine } from "mg-core/inline";
import { machineStore, themeScript } from "mg-core/react";
import wasmUrl = require("mg-core/mg_core_bg.wasm");

const theme: Theme = new ThemeMachine(undefined).toggle();
const cube: HypercubeWidget = new SimdHypercubeWidget();
const memory: WebAssembly.Memory = wasmMemory();
const ready: Promise<InitOutput> = init();
const slim: Promise<void> = initialize(new Uint8Array(0));
const graphics: Promise<void> = initializeGraphics(new Uint8Array(0));
const web: Theme = new WebThemeMachine("void").theme;
const inline: Theme = new InlineThemeMachine("void").theme;
const url: string = wasmUrl;
export { cube, graphics, inline, machineStore, memory, ready, slim, StatusPageMachine, theme, themeScript, url, web };
