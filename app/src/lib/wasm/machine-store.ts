// The one way React holds a wasm machine. A `MachineStore` owns at most one machine at a time:
// created when the component mounts (or when first used, for a machine whose wasm a page may never
// load), freed when it unmounts, so StrictMode's mount, unmount, mount makes and frees one machine per
// mount. After each event it re-reads the machine's snapshot and keeps one timer at the machine's
// `nextDeadline()`. React reads the snapshot through `useSyncExternalStore`: the snapshot object is
// replaced (and the store's version bumped) only when the machine says something changed, and the
// first render, the server's render and hydration all read the same initial snapshot.
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

/** Nothing read yet from the machine the store owns. */
const UNREAD = Symbol("unread");

export class MachineStore<M extends WasmMachine, S> {
  /** The latest render's spec (its callbacks see the latest props). */
  spec: MachineSpec<M, S>;
  /** Bumped each time the snapshot is replaced. */
  version = 0;
  private machine: M | null = null;
  private mounted = false;
  private snapshot: S;
  private readonly initialSnapshot: S;
  /** What the current snapshot was read at: the machine's version, or the snapshot's JSON. */
  private key: unknown;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(spec: MachineSpec<M, S>) {
    this.spec = spec;
    this.snapshot = this.initialSnapshot = spec.initial();
    this.key = spec.version ? UNREAD : JSON.stringify(this.snapshot);
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): S => this.snapshot;

  readonly getServerSnapshot = (): S => this.initialSnapshot;

  /** Starts owning a machine (now, unless it is made on demand); returns the unmount. */
  mount(): () => void {
    this.mounted = true;
    if (!this.spec.onDemand) this.open();
    return () => this.unmount();
  }

  /** The live machine, made first if it does not exist yet; null while unmounted. */
  open(): M | null {
    if (!this.mounted) return null;
    if (!this.machine) {
      const machine = this.spec.create();
      this.machine = machine;
      if (this.spec.version) this.key = UNREAD;
      this.spec.start?.(machine, this);
      this.sync();
    }
    return this.machine;
  }

  /** Whether `machine` is the one this store owns now (not freed, not replaced). */
  owns(machine: M): boolean {
    return this.machine === machine;
  }

  /** Runs `event` on the live machine and re-reads; undefined (nothing run) while unmounted. */
  act<R>(event: (machine: M) => R): R | undefined {
    const machine = this.open();
    if (!machine) return undefined;
    const result = event(machine);
    this.sync();
    return result;
  }

  /**
   * For an answer that arrives later: runs `event` and re-reads only if `machine`, the one the
   * request was made for, is still live; otherwise the answer is dropped (undefined).
   */
  answer<R>(machine: M, event: (machine: M) => R): R | undefined {
    if (!this.owns(machine)) return undefined;
    const result = event(machine);
    this.sync();
    return result;
  }

  /** Re-reads the snapshot (telling React only if it changed) and re-arms the one timer. */
  sync(): void {
    const machine = this.machine;
    if (!machine) return;
    if (this.refresh(machine)) {
      this.version += 1;
      for (const listener of this.listeners) listener();
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    const at = machine.nextDeadline?.();
    if (at === undefined) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        if (!this.owns(machine)) return;
        this.spec.due?.(machine, Date.now(), this);
        this.sync();
      },
      Math.max(0, at - Date.now()),
    );
  }

  private refresh(machine: M): boolean {
    const { version, read } = this.spec;
    const first = this.key === UNREAD;
    if (version) {
      const key = version(machine);
      if (key === this.key) return false;
      this.key = key;
      this.snapshot = read(machine, first ? undefined : this.snapshot);
      return true;
    }
    const next = read(machine, this.snapshot);
    const key = JSON.stringify(next);
    if (key === this.key) return false;
    this.key = key;
    this.snapshot = next;
    return true;
  }

  private unmount(): void {
    this.mounted = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    const machine = this.machine;
    this.machine = null;
    machine?.free();
  }
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
  const [store] = useState(() => new MachineStore(spec));
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
