// Runs one widget outside React: GL context, animation loop, observers, drag, theme rebuilds.

import { observeDeviceSize, onDrag, onThemeChange } from "./canvas-events";
import { SceneRenderer } from "./renderer";
import type { SceneName } from "./scenes";

/** Starts drawing `scene` into `canvas` (inside `box`) and returns the function that stops it and
 * frees everything. Without WebGL2 it marks the box `data-graphics="fallback"` (CSS draws a
 * static picture) and does nothing else. */
export function mountGraphics(
  box: HTMLElement,
  canvas: HTMLCanvasElement,
  sceneName: SceneName,
): () => void {
  const gl = canvas.getContext("webgl2", {
    alpha: true,
    antialias: true,
    premultipliedAlpha: true,
    // Keeps the last frame readable (tests read pixels back); cheap at this canvas size.
    preserveDrawingBuffer: true,
  });
  if (!gl) {
    box.dataset.graphics = "fallback";
    return () => {};
  }

  const reducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)");
  let renderer: SceneRenderer | null = null;
  let builds = 0;
  let frames = 0;
  let onScreen = typeof IntersectionObserver === "undefined";
  let contextLost = false;
  let frameRequest = 0;
  let size = { width: 0, height: 0 };

  const publish = () => {
    canvas.dataset.glObjects = String(renderer?.liveObjects ?? 0);
    canvas.dataset.glBuilds = String(builds);
    canvas.dataset.frames = String(frames);
  };

  const draw = (advance: boolean) => {
    if (!renderer || contextLost) return;
    renderer.render(advance, window.devicePixelRatio || 1);
    frames += 1;
    publish();
  };

  const animating = () =>
    renderer !== null && onScreen && !document.hidden && !reducedMotion?.matches && !contextLost;

  const tick = () => {
    frameRequest = 0;
    if (!animating()) return;
    draw(true);
    frameRequest = requestAnimationFrame(tick);
  };

  /** Starts or stops the loop to match visibility and motion preference. */
  const update = () => {
    if (animating()) {
      if (!frameRequest) frameRequest = requestAnimationFrame(tick);
    } else if (frameRequest) {
      cancelAnimationFrame(frameRequest);
      frameRequest = 0;
    }
  };

  const build = () => {
    renderer?.dispose();
    renderer = null;
    try {
      const seed = (Date.now() ^ (Math.random() * 0x7fffffff)) >>> 0;
      renderer = new SceneRenderer(gl, sceneName, seed, getComputedStyle(canvas));
    } catch {
      box.dataset.graphics = "fallback";
      publish();
      return;
    }
    builds += 1;
    box.dataset.graphics = "webgl";
    if (size.width > 0) renderer.resize(size.width, size.height);
    // One still frame now: the whole picture under reduced motion, the first frame otherwise.
    draw(false);
    update();
  };

  const resize = (width: number, height: number) => {
    if (width === size.width && height === size.height) return;
    size = { width, height };
    canvas.width = width;
    canvas.height = height;
    renderer?.resize(width, height);
    if (!frameRequest) draw(false);
  };

  const stopSizing = observeDeviceSize(canvas, resize);

  const intersection =
    typeof IntersectionObserver === "undefined"
      ? null
      : new IntersectionObserver(([entry]) => {
          onScreen = entry?.isIntersecting ?? false;
          update();
        });
  intersection?.observe(box);

  const stopTheme = onThemeChange(build);

  const onMotionChange = () => {
    update();
    if (!frameRequest) draw(false);
  };
  reducedMotion?.addEventListener("change", onMotionChange);
  document.addEventListener("visibilitychange", update);

  const stopDrag = onDrag(canvas, (dx, dy) => {
    if (!renderer) return;
    renderer.drag(dx, dy);
    // When the loop is not running, show the turn at once (a drag is the visitor's own motion).
    if (!frameRequest) draw(true);
  });

  const onContextLost = (event: Event) => {
    event.preventDefault();
    contextLost = true;
    update();
  };
  const onContextRestored = () => {
    contextLost = false;
    // The old objects died with the context: forget them, then build afresh.
    renderer = null;
    build();
  };
  canvas.addEventListener("webglcontextlost", onContextLost);
  canvas.addEventListener("webglcontextrestored", onContextRestored);

  build();

  return () => {
    if (frameRequest) cancelAnimationFrame(frameRequest);
    frameRequest = 0;
    stopSizing();
    intersection?.disconnect();
    stopTheme();
    reducedMotion?.removeEventListener("change", onMotionChange);
    document.removeEventListener("visibilitychange", update);
    stopDrag();
    canvas.removeEventListener("webglcontextlost", onContextLost);
    canvas.removeEventListener("webglcontextrestored", onContextRestored);
    renderer?.dispose();
    renderer = null;
    publish();
  };
}
