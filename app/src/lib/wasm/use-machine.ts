// Shared plumbing of the machine hooks: own one wasm object, one timer at its deadline, render on change.
import { type RefObject, useCallback, useEffect, useRef, useState } from "react";

export interface WasmMachine {
  free(): void;
  nextDeadline?(): number | undefined;
}

export interface MachineHandle<M, S> {
  /** The live machine; null before mount and after unmount (results arriving then are dropped). */
  machine: RefObject<M | null>;
  snapshot: S;
  /** Re-reads the snapshot (re-rendering only if it changed) and re-arms the one timer. */
  sync: () => void;
}

/**
 * Creates the machine after mount and frees it on unmount. `onDue` runs when the machine's
 * `nextDeadline()` (a Date.now() time) is reached; the snapshot is compared by value so an
 * event that changes nothing renders nothing.
 */
export function useMachine<M extends WasmMachine, S>(
  create: () => M,
  read: (machine: M) => S,
  initial: S,
  onDue?: (machine: M, now: number) => void,
): MachineHandle<M, S> {
  const machine = useRef<M | null>(null);
  const [snapshot, setSnapshot] = useState<S>(initial);
  const lastKey = useRef(JSON.stringify(initial));
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The latest callbacks, so the effect below runs once per mount.
  const latest = useRef({ create, read, onDue });
  latest.current = { create, read, onDue };

  const sync = useCallback(() => {
    const owned = machine.current;
    if (!owned) return;
    const next = latest.current.read(owned);
    const key = JSON.stringify(next);
    if (key !== lastKey.current) {
      lastKey.current = key;
      setSnapshot(next);
    }
    clearTimeout(timer.current);
    timer.current = undefined;
    const at = owned.nextDeadline?.();
    if (at === undefined) return;
    timer.current = setTimeout(
      () => {
        if (machine.current !== owned) return;
        latest.current.onDue?.(owned, Date.now());
        sync();
      },
      Math.max(0, at - Date.now()),
    );
  }, []);

  useEffect(() => {
    const owned = latest.current.create();
    machine.current = owned;
    sync();
    return () => {
      clearTimeout(timer.current);
      timer.current = undefined;
      machine.current = null;
      owned.free();
    };
  }, [sync]);

  return { machine, snapshot, sync };
}
