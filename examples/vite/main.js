// Vite with nothing about mg-core configured, in `vite dev` (the `development` condition: the inlined
// build, which the dependency pre-bundler handles) and after `vite build` (the `production`
// condition: the bundler build, its .wasm a file of its own): the machines, the graphics,
// `mg-core/react`'s useTheme in a React root, and a `?worker` with Vite's default worker settings
// asked a question the moment it is created, before its wasm can be ready.
import * as core from "mg-core";
import * as graphics from "mg-core/graphics";
import { useTheme } from "mg-core/react";
import { createElement } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { driveMachines, fillHypercube, toggleThemeHook } from "../common/check.mjs";
import { report } from "../common/report.mjs";
import Wisdom from "./worker.js?worker";

function askWorker() {
  const worker = new Wisdom();
  return new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => (data.ok ? resolve(data.lines) : reject(new Error(data.error)));
    worker.onerror = (event) => reject(new Error(`worker error: ${event.message}`));
    worker.postMessage("first");
  }).finally(() => worker.terminate());
}

report(async () => [
  driveMachines(core),
  fillHypercube(graphics),
  await toggleThemeHook({ createElement, createRoot, flushSync, useTheme, ThemeMachine: core.ThemeMachine }),
  ...(await askWorker()),
]);
