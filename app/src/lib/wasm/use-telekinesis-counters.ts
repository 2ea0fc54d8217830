import { useState } from "react";
import { type DemoCounters, TelekinesisCounters } from "./core";
import { useMachine } from "./use-machine";

/**
 * The seed of the first draw when the caller names none. Fixed, so the counters' first values are the
 * same in the prerendered HTML and in the browser's first render (hydration keeps them, nothing swaps);
 * the later draws follow every 3 s from there.
 */
export const FIRST_DRAW_SEED = 0x6d67_7765;

/** Demonstration counters for the telekinesis page, redrawn every 3 s. Always show `label` with them. */
export function useTelekinesisCounters(seed: number = FIRST_DRAW_SEED): {
  counters: DemoCounters | null;
  label: string;
} {
  // The machine's real first snapshot, read in the first render (the page chunk waits for the wasm).
  const [initial] = useState((): DemoCounters => {
    const first = new TelekinesisCounters(seed, 0);
    const counters = first.counters();
    first.free();
    return counters;
  });
  const { snapshot } = useMachine(
    () => new TelekinesisCounters(seed, Date.now()),
    (owned): DemoCounters | null => owned.counters(),
    initial,
    (owned, now) => owned.tick(now),
  );
  return { counters: snapshot, label: TelekinesisCounters.demoLabel() };
}
