// The one way React holds a wasm machine. A `MachineStore` owns at most one machine at a time:
// created when the component mounts (or when first used, for a machine whose wasm a page may never
// load), freed when it unmounts, so StrictMode's mount, unmount, mount makes and frees one machine per
// mount. After each event it re-reads the machine's snapshot and keeps one timer at the machine's
// `nextDeadline()`. React reads the snapshot through `useSyncExternalStore`: the snapshot object is
// replaced only when the machine says something changed (its version counters, where it has them),
// and the first render, the server's render and hydration all read the same initial snapshot.
import { type DependencyList, useEffect, useState, useSyncExternalStore } from "react";

export interface WasmMachine {
  free(): void;
  /** When the machine next wants to be woken (a Date.now() time); undefined: never. */
  nextDeadline?(): number | undefined;
}

export interface MachineSpec<M extends WasmMachine, S> {
  /** Makes the machine; called once per mount (with `onDemand`, at its first use). */
  create(): M;
  /**
   * The snapshot React renders. `previous` is the last snapshot read from this same machine
   * (undefined at its first read), so a reader can keep the parts that did not change.
   */
  read(machine: M, previous: S | undefined): S;
  /**
   * A value that changes whenever the snapshot would (the machine's own version counters): the
   * snapshot is re-read only when it changed. Without it, each read is compared by its JSON, so an
   * event that changes nothing renders nothing.
   */
  version?(machine: M): number | string;
  /** The snapshot before a machine exists: the first render, the server's render, hydration. */
  initial(): S;
  /** Runs right after the machine is made: the first round of checks, the first step of a flow. */
  start?(machine: M, store: MachineStore<M, S>): void;
  /** Runs when the machine's deadline is reached. */
  due?(machine: M, now: number, store: MachineStore<M, S>): void;
  /** Made at first use (`open`, `act`) rather than at mount. */
  onDemand?: boolean;
}

/** The store of one component's machine: what React subscribes to, and how events reach the machine. */
export interface MachineStore<M extends WasmMachine, S> {
  /** The latest render's spec (its callbacks see the latest props). */
  spec: MachineSpec<M, S>;
  subscribe(listener: () => void): () => void;
  getSnapshot(): S;
  /** The initial snapshot, for the server's render and for hydration. */
  getServerSnapshot(): S;
  /** Starts owning a machine (now, unless it is made on demand); returns the unmount. */
  mount(): () => void;
  /** The live machine, made first if it does not exist yet; null while unmounted. */
  open(): M | null;
  /** Runs `event` on the live machine and re-reads; undefined (nothing run) while unmounted. */
  act<R>(event: (machine: M) => R): R | undefined;
  /**
   * For an answer that arrives later: runs `event` and re-reads only if `machine`, the one the
   * request was made for, is still live; otherwise the answer is dropped (undefined).
   */
  answer<R>(machine: M, event: (machine: M) => R): R | undefined;
  /** Re-reads the snapshot (telling React only if it changed) and re-arms the one timer. */
  sync(): void;
}

// A closure rather than a class: every page's first load carries this (the theme runs on it), and
// closure variables minify to single letters where class fields keep their names.
export function machineStore<M extends WasmMachine, S>(
  first: MachineSpec<M, S>,
): MachineStore<M, S> {
  const initial = first.initial();
  let snapshot = initial;
  let machine: M | null = null;
  let mounted = false;
  // What the snapshot was read at: the machine's version (undefined: nothing read yet from the
  // machine owned now), or the snapshot's JSON.
  let key: number | string | undefined = first.version ? undefined : JSON.stringify(initial);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();

  /** Re-reads what the machine says changed; true when the snapshot was replaced. */
  const refresh = (owned: M): boolean => {
    const { version, read } = store.spec;
    if (version) {
      const next = version(owned);
      if (next === key) return false;
      const previous = key === undefined ? undefined : snapshot;
      key = next;
      snapshot = read(owned, previous);
      return true;
    }
    const next = read(owned, snapshot);
    const json = JSON.stringify(next);
    if (json === key) return false;
    key = json;
    snapshot = next;
    return true;
  };

  const store: MachineStore<M, S> = {
    spec: first,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    getServerSnapshot: () => initial,
    mount: () => {
      mounted = true;
      if (!store.spec.onDemand) store.open();
      return () => {
        mounted = false;
        clearTimeout(timer);
        timer = undefined;
        const owned = machine;
        machine = null;
        owned?.free();
      };
    },
    open: () => {
      if (!mounted) return null;
      if (!machine) {
        const made = store.spec.create();
        machine = made;
        if (store.spec.version) key = undefined;
        store.spec.start?.(made, store);
        store.sync();
      }
      return machine;
    },
    act: (event) => {
      const owned = store.open();
      return owned ? store.answer(owned, event) : undefined;
    },
    answer: (owned, event) => {
      if (machine !== owned) return undefined;
      const result = event(owned);
      store.sync();
      return result;
    },
    sync: () => {
      const owned = machine;
      if (!owned) return;
      if (refresh(owned)) for (const listener of listeners) listener();
      clearTimeout(timer);
      timer = undefined;
      const at = owned.nextDeadline?.();
      if (at === undefined) return;
      timer = setTimeout(
        () => {
          timer = undefined;
          if (machine !== owned) return;
          store.spec.due?.(owned, Date.now(), store);
          store.sync();
        },
        Math.max(0, at - Date.now()),
      );
    },
  };
  return store;
}

/**
 * Holds a machine for as long as the component is mounted, re-made when `deps` change. `store`
 * is the same object for the component's life: events go through `store.act` and `store.answer`.
 */
export function useMachineStore<M extends WasmMachine, S>(
  spec: MachineSpec<M, S>,
  deps: DependencyList = [],
): { snapshot: S; store: MachineStore<M, S> } {
  // A plain object (no wasm) made once per component; the machine itself is made by the effect.
  const [store] = useState(() => machineStore(spec));
  store.spec = spec;
  // `deps`: what the caller says re-makes the machine (its constructor's arguments).
  useEffect(() => store.mount(), [store, ...deps]);
  const snapshot = useSyncExternalStore(
    store.subscribe,
    store.getSnapshot,
    store.getServerSnapshot,
  );
  return { snapshot, store };
}

/** Reads `machine` once and frees it: a snapshot for the first render, before the store's machine. */
export function readOnce<M extends WasmMachine, S>(machine: M, read: (machine: M) => S): S {
  try {
    return read(machine);
  } finally {
    machine.free();
  }
}
