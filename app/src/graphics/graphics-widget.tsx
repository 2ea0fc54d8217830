// A decorative WebGL2 widget: reserves its box at once, loads its renderer and wasm after first paint,
// and only once the box is on screen.

import { useEffect, useRef } from "react";
import type { SceneName } from "./scene-names";
import "./graphics.css";

export type { SceneName } from "./scene-names";

export type GraphicsWidgetProps = {
  /** Which picture: "icosahedron" (widget 1), "hypercube" (widget 2), "helix" or "molecule". */
  scene: SceneName;
  /** Width and height in CSS pixels; the box is reserved at this size before anything loads. */
  size?: number;
  className?: string;
};

/** Runs `run` once the page has loaded and the browser is idle; returns a cancel function. */
function afterFirstPaint(run: () => void): () => void {
  let idle = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    if (typeof window.requestIdleCallback === "function") {
      idle = window.requestIdleCallback(run, { timeout: 1000 });
    } else {
      timer = setTimeout(run, 100);
    }
  };
  if (document.readyState === "complete") schedule();
  else window.addEventListener("load", schedule, { once: true });
  return () => {
    window.removeEventListener("load", schedule);
    if (idle) window.cancelIdleCallback(idle);
    if (timer) clearTimeout(timer);
  };
}

/**
 * Runs `run` once the page has loaded, the browser is idle and the box is (nearly) on screen; returns a
 * cancel function. A box left out with `display: none` (narrow screens) never is, so its renderer, its
 * wasm and its GL context are never loaded: they would only cost the visitor's CPU and data.
 */
function whenShown(box: HTMLElement, run: () => void): () => void {
  let observer: IntersectionObserver | undefined;
  const cancelIdle = afterFirstPaint(() => {
    if (typeof IntersectionObserver === "undefined") {
      run();
      return;
    }
    observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer?.disconnect();
        observer = undefined;
        run();
      },
      { rootMargin: "200px" },
    );
    observer.observe(box);
  });
  return () => {
    cancelIdle();
    observer?.disconnect();
  };
}

/** Decoration only (`aria-hidden`): drag to turn it; it pauses off screen, in a hidden tab and
 * under reduced motion, and shows a static picture without WebGL2. */
export function GraphicsWidget({ scene, size = 250, className }: GraphicsWidgetProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const box = boxRef.current;
    const canvas = canvasRef.current;
    if (!box || !canvas) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    const cancelLoad = whenShown(box, () => {
      import("./mount")
        .then(({ mountGraphics }) => {
          if (!cancelled) stop = mountGraphics(box, canvas, scene);
        })
        .catch(() => {
          box.dataset.graphics = "fallback";
        });
    });
    return () => {
      cancelled = true;
      cancelLoad();
      stop?.();
    };
  }, [scene]);

  return (
    <div
      ref={boxRef}
      className={className ? `graphics-widget ${className}` : "graphics-widget"}
      data-scene={scene}
      aria-hidden="true"
      style={{ width: size, height: size }}
    >
      <canvas ref={canvasRef} className="graphics-widget__canvas" />
    </div>
  );
}
