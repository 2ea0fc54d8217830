import { type DemoCounters, TelekinesisCounters } from "./core";
import { useMachine } from "./use-machine";

/** Demonstration counters for the telekinesis page, redrawn every 3 s. Always show `label` with them. */
export function useTelekinesisCounters(seed?: number): {
  counters: DemoCounters | null;
  label: string;
} {
  const { snapshot } = useMachine(
    () => new TelekinesisCounters(seed ?? Math.floor(Math.random() * 0xffff_ffff), Date.now()),
    (owned): DemoCounters | null => owned.counters(),
    null,
    (owned, now) => owned.tick(now),
  );
  return { counters: snapshot, label: TelekinesisCounters.demoLabel() };
}
