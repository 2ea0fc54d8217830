// The browser events a widget follows, each as a function that starts listening and returns the one
// that stops: the canvas's size in device pixels, the page's theme, and drags.

/** Calls `resize(width, height)` with the canvas's size in device pixels whenever it changes. */
export function observeDeviceSize(
  canvas: HTMLCanvasElement,
  resize: (width: number, height: number) => void,
): () => void {
  const observer = new ResizeObserver(([entry]) => {
    if (!entry) return;
    const device = entry.devicePixelContentBoxSize?.[0];
    const css = entry.contentBoxSize[0];
    const ratio = window.devicePixelRatio || 1;
    const width = device ? device.inlineSize : Math.round((css?.inlineSize ?? 0) * ratio);
    const height = device ? device.blockSize : Math.round((css?.blockSize ?? 0) * ratio);
    if (width > 0 && height > 0) resize(width, height);
  });
  try {
    observer.observe(canvas, { box: "device-pixel-content-box" });
  } catch {
    observer.observe(canvas);
  }
  return () => observer.disconnect();
}

/** Calls `changed` when the page's data-theme really changes (setting the same theme again is not
 * a change). */
export function onThemeChange(changed: () => void): () => void {
  const observer = new MutationObserver((records) => {
    const now = document.documentElement.dataset.theme ?? null;
    if (records.some((record) => record.oldValue !== now)) changed();
  });
  observer.observe(document.documentElement, {
    attributes: true,
    attributeFilter: ["data-theme"],
    attributeOldValue: true,
  });
  return () => observer.disconnect();
}

/** Calls `moved(dx, dy)` in CSS pixels while a mouse, pen or touch drags on the canvas (which has
 * `touch-action: none`, so touch does not scroll the page). */
export function onDrag(
  canvas: HTMLCanvasElement,
  moved: (dx: number, dy: number) => void,
): () => void {
  let dragging: { id: number; x: number; y: number } | null = null;
  const down = (event: PointerEvent) => {
    dragging = { id: event.pointerId, x: event.clientX, y: event.clientY };
    canvas.setPointerCapture?.(event.pointerId);
  };
  const move = (event: PointerEvent) => {
    if (!dragging || dragging.id !== event.pointerId) return;
    const dx = event.clientX - dragging.x;
    const dy = event.clientY - dragging.y;
    dragging.x = event.clientX;
    dragging.y = event.clientY;
    moved(dx, dy);
  };
  const up = (event: PointerEvent) => {
    if (dragging?.id === event.pointerId) dragging = null;
  };
  canvas.addEventListener("pointerdown", down);
  canvas.addEventListener("pointermove", move);
  canvas.addEventListener("pointerup", up);
  canvas.addEventListener("pointercancel", up);
  return () => {
    canvas.removeEventListener("pointerdown", down);
    canvas.removeEventListener("pointermove", move);
    canvas.removeEventListener("pointerup", up);
    canvas.removeEventListener("pointercancel", up);
  };
}
