// On-demand access to the wasm core, for code that must not put it on a page's first load.
//
// Importing `./core` statically (from a page's chunk) downloads and instantiates the wasm; that module
// then reports itself here, so code outside those chunks (the theme toggle, the API client's error
// messages) can use the machines once some page has loaded them, or load them itself with `loadCore()`
// when someone acts.
import type * as MgCore from "mg-core";
// Only the file's URL (a build asset); nothing is downloaded by this import.
import wasmUrl from "mg-core/mg_core_bg.wasm?url";

export type Core = typeof MgCore;

let core: Core | undefined;
let loading: Promise<Core> | undefined;
const waiting = new Set<(core: Core) => void>();

/** Called once by `./core` when the wasm is instantiated. */
export function coreReady(loaded: Core): void {
  core = loaded;
  for (const notify of waiting) notify(loaded);
  waiting.clear();
}

/** The core if it is already instantiated (no download started otherwise). */
export function loadedCore(): Core | undefined {
  return core;
}

/** Downloads and instantiates the core (once); resolves at once when it is already there. */
export function loadCore(): Promise<Core> {
  if (core) return Promise.resolve(core);
  // The package itself, not ./core (which imports this module): no import cycle, and the same
  // module instance either way, since a module is instantiated once whoever imports it.
  loading ??= import("mg-core").then((loaded) => {
    coreReady(loaded);
    return loaded;
  });
  return loading;
}

/** Runs `use` with the core: at once if it is instantiated, else once `loadCore()` has it. */
export function withCore(use: (core: Core) => void): void {
  if (core) use(core);
  else void loadCore().then(use);
}

/** Runs `use` as soon as the core is instantiated (now, if it is), without loading it; returns a cancel function. */
export function whenCoreLoaded(use: (core: Core) => void): () => void {
  if (core) {
    use(core);
    return () => {};
  }
  waiting.add(use);
  return () => {
    waiting.delete(use);
  };
}

/**
 * Starts downloading the wasm now (a `<link rel="preload">`), for a page that will import the core as
 * soon as its own chunk arrives: the two then download side by side instead of one after the other.
 * The core's loader fetches the same URL, which the browser answers from this preload.
 */
export function preloadCoreWasm(): void {
  if (core || typeof document === "undefined") return;
  if (document.querySelector(`link[rel="preload"][href="${wasmUrl}"]`)) return;
  const link = document.createElement("link");
  link.rel = "preload";
  link.as = "fetch";
  link.type = "application/wasm";
  link.crossOrigin = "anonymous";
  link.href = wasmUrl;
  document.head.append(link);
}
