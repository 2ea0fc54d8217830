// mg-core/react: React bindings for the machines of every mg-core entry (React 18 or later, a peer
// dependency). Nothing here loads a .wasm: pass the classes from the entry you use.

/** What a store can hold: any mg-core machine (each has `free()`; the timed ones `nextDeadline()`). */
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

/** A store outside React (or for your own hook): call `mount()` to start owning a machine. */
export function machineStore<M extends WasmMachine, S>(spec: MachineSpec<M, S>): MachineStore<M, S>;

/**
 * Holds a machine for as long as the component is mounted, re-made when `deps` change. `store`
 * is the same object for the component's life: events go through `store.act` and `store.answer`.
 * The server's render and hydration render `spec.initial()`.
 */
export function useMachineStore<M extends WasmMachine, S>(
  spec: MachineSpec<M, S>,
  deps?: readonly unknown[],
): { snapshot: S; store: MachineStore<M, S> };

/** Reads `machine` once and frees it: a snapshot for the first render, before the store's machine. */
export function readOnce<M extends WasmMachine, S>(machine: M, read: (machine: M) => S): S;

/**
 * The stored theme applied before first paint, as `data-theme` on <html>: put it inline in the
 * <head> (`<script dangerouslySetInnerHTML={{ __html: themeScript }} />`) and style by
 * `[data-theme="void"]`. It reads the stored value as ThemeMachine does.
 */
export const themeScript: string;

/** The class `useTheme` drives: mg-core's `ThemeMachine`, from whichever entry you import. */
export interface ThemeMachineClass<T extends string> {
  new (stored?: string | null): WasmMachine & {
    readonly theme: T;
    toggle(): T;
    sync(stored?: string | null): T;
  };
  storageKey(): string;
}

/**
 * The page's theme, owned by a ThemeMachine made at mount: toggled, stored, synced across tabs and
 * with every other `useTheme` of the page.
 * `theme` is undefined on the server and until the machine exists (style by `data-theme`, which
 * `themeScript` set before paint, so nothing flashes); `toggle()` before then does nothing.
 */
export function useTheme<T extends string>(
  ThemeMachine: ThemeMachineClass<T>,
): { theme: T | undefined; toggle: () => void };
