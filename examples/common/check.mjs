// What every fixture does with the package, whatever loads it: one machine transition with time
// passed in, one graphics buffer filled. Each function throws with what differed.

function expect(what, actual, wanted) {
  const a = JSON.stringify(actual);
  const w = JSON.stringify(wanted);
  if (a !== w) throw new Error(`${what}: got ${a}, wanted ${w}`);
}

/** The theme toggle, then the Wisdom button through its 5 s deadline (the clock is the caller's). */
export function driveMachines({ ThemeMachine, WisdomMachine }) {
  const theme = new ThemeMachine(undefined);
  expect("theme at start", theme.theme, "cosmic");
  expect("theme after toggle", theme.toggle(), "void");
  expect("stored theme key", ThemeMachine.storageKey(), "theme");
  theme.free();

  const t0 = 1_000_000;
  const wisdom = new WisdomMachine();
  expect("wisdom at start", wisdom.snapshot(), { status: "idle" });
  expect("first click", wisdom.click(), true);
  expect("second click while loading", wisdom.click(), false);
  wisdom.answered(200, '{"wisdom":{"quote":"Know thyself.","orator":"Socrates"}}', t0);
  const shown = wisdom.snapshot();
  expect("answer shown", [shown.status, shown.quote, shown.orator], ["success", "Know thyself.", "Socrates"]);
  expect("one timer, 5 s later", wisdom.nextDeadline(), t0 + 5_000);
  expect("tick 1 ms early", wisdom.tick(t0 + 4_999), false);
  expect("tick at the deadline", wisdom.tick(t0 + 5_000), true);
  expect("back to idle", wisdom.snapshot(), { status: "idle" });
  expect("no timer when idle", wisdom.nextDeadline(), undefined);
  wisdom.free();
  return "theme cosmic->void; wisdom idle->loading->success->idle at +5000 ms";
}

/** One hypercube frame: its vertex buffer read straight out of the graphics wasm's memory. */
export function fillHypercube({ HypercubeWidget, vertexStride, wasmMemory }) {
  const cube = new HypercubeWidget();
  cube.step();
  const vertices = new Float32Array(wasmMemory().buffer, cube.verticesPtr(), cube.verticesLen());
  expect("hypercube vertex floats", vertices.length, 16 * vertexStride());
  if (!vertices.every(Number.isFinite) || vertices.every((v) => v === 0)) {
    throw new Error("hypercube vertices are not a drawable frame");
  }
  const edges = new Uint16Array(wasmMemory().buffer, cube.edgesPtr(), cube.edgesLen());
  expect("hypercube edge indices", edges.length, 64);
  cube.free();
  return `hypercube: ${vertices.length} floats, ${edges.length} edge indices`;
}

/**
 * `mg-core/react` in a browser page: two `useTheme` toggles mounted in a React root (a header's and a
 * menu's; React and the package's modules passed in, so this file imports nothing) own the theme
 * after their effects ran, and a toggle in one moves `<html data-theme>`, the stored value and the
 * other toggle's theme.
 */
export async function toggleThemeHook({ createElement, createRoot, flushSync, useTheme, ThemeMachine }) {
  localStorage.removeItem(ThemeMachine.storageKey());
  const host = document.body.appendChild(document.createElement("div"));
  const hooks = [];
  const Toggle = ({ at }) => {
    const hook = useTheme(ThemeMachine);
    hooks[at] = hook;
    return createElement("button", { type: "button", onClick: hook.toggle }, hook.theme ?? "…");
  };
  const root = createRoot(host);
  const settle = async (what, test) => {
    for (let tries = 0; tries < 100 && !test(); tries += 1) await new Promise((r) => setTimeout(r, 20));
    if (!test()) throw new Error(`useTheme: ${what}; <html data-theme> is ${document.documentElement.dataset.theme}`);
  };
  // Out of the caller's task: flushSync cannot run while React renders (a caller's effect).
  await new Promise((resolve) => setTimeout(resolve));
  flushSync(() => root.render([createElement(Toggle, { at: 0, key: 0 }), createElement(Toggle, { at: 1, key: 1 })]));
  await settle("no machine after mount", () => hooks.length === 2 && hooks.every((hook) => hook.theme === "cosmic"));
  flushSync(() => hooks[0].toggle());
  await settle("toggle did not reach <html>", () => hooks[0].theme === "void" && document.documentElement.dataset.theme === "void");
  await settle("the page's other toggle did not follow", () => hooks[1].theme === "void");
  expect("stored theme", localStorage.getItem(ThemeMachine.storageKey()), "void");
  root.unmount();
  host.remove();
  return "mg-core/react: useTheme cosmic->void on <html data-theme>, in localStorage and in the page's other toggle";
}
