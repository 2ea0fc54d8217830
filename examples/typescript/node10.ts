// Type-checked only, with moduleResolution node10 (no `exports`): every subpath still has its types.
import { ThemeMachine, type Theme } from "mg-core";
import { HypercubeWidget } from "mg-core/graphics";
import { HypercubeWidget as SimdHypercubeWidget } from "mg-core/graphics/simd";
import { initialize as initializeGraphics } from "mg-core/graphics/slim";
import { StatusPageMachine } from "mg-core/status";
import { useMachineStore } from "mg-core/react";
import { initialize } from "mg-core/slim";
import init from "mg-core/web";
import wasmUrl from "mg-core/mg_core_bg.wasm";
import graphicsUrl from "mg-core/graphics/mg_core_graphics_bg.wasm";

export const theme: Theme = new ThemeMachine(undefined).toggle();
export const cube: HypercubeWidget = new SimdHypercubeWidget();
export const urls: string[] = [wasmUrl, graphicsUrl];
export const loaders = [init, initialize, initializeGraphics, useMachineStore];
export type Status = StatusPageMachine;
