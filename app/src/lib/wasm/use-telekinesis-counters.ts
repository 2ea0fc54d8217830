import { readOnce, useMachineStore } from "mg-core/react";
import { type DemoCounters, TelekinesisCounters } from "./core";

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
  const { snapshot } = useMachineStore({
    create: () => new TelekinesisCounters(seed, Date.now()),
    read: (machine): DemoCounters | null => machine.counters(),
    // The machine's real first draw, read in the first render (the page chunk waits for the wasm).
    initial: () => readOnce(new TelekinesisCounters(seed, 0), (first) => first.counters()),
    due: (machine, now) => machine.tick(now),
  });
  return { counters: snapshot, label: TelekinesisCounters.demoLabel() };
}
