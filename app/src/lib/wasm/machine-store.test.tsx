import { act, renderHook } from "@testing-library/react";
import { type MachineSpec, useMachineStore } from "mg-core/react";
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The store with a stand-in machine (the hooks' own tests run it with the real wasm ones): a counter
// that wants waking `wait` ms after each event, and counts its constructions and frees.
let made = 0;
let freed = 0;

class Counter {
  value = 0;
  deadline: number | undefined;
  constructor(readonly wait?: number) {
    made += 1;
    this.arm();
  }
  bump(by = 1): void {
    this.value += by;
    this.arm();
  }
  nextDeadline(): number | undefined {
    return this.deadline;
  }
  free(): void {
    freed += 1;
  }
  private arm(): void {
    this.deadline = this.wait === undefined ? undefined : Date.now() + this.wait;
  }
}

type Snapshot = { value: number };

function spec(over: Partial<MachineSpec<Counter, Snapshot>> = {}): MachineSpec<Counter, Snapshot> {
  return {
    create: () => new Counter(),
    read: (machine) => ({ value: machine.value }),
    initial: () => ({ value: -1 }),
    ...over,
  };
}

describe("useMachineStore", () => {
  beforeEach(() => {
    made = 0;
    freed = 0;
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it("renders the initial snapshot on the server, and makes no machine there", () => {
    function Show() {
      const { snapshot } = useMachineStore(spec());
      return <output>{snapshot.value}</output>;
    }
    expect(renderToString(<Show />)).toBe("<output>-1</output>");
    expect(made).toBe(0);
  });

  it("makes and frees one machine per mount, StrictMode's second mount included", () => {
    const { unmount } = renderHook(() => useMachineStore(spec()), { wrapper: StrictMode });
    expect(made - freed).toBe(1);
    unmount();
    expect(made - freed).toBe(0);
  });

  it("re-renders only when the snapshot changed, and keeps the same object otherwise", () => {
    let renders = 0;
    const { result } = renderHook(() => {
      renders += 1;
      return useMachineStore(spec());
    });
    const first = result.current.snapshot;
    const before = renders;
    act(() => result.current.store.act(() => {}));
    expect(renders).toBe(before);
    expect(result.current.snapshot).toBe(first);
    act(() => result.current.store.act((machine) => machine.bump()));
    expect(renders).toBe(before + 1);
    expect(result.current.snapshot).toEqual({ value: 1 });
  });

  it("reads through the machine's version when it has one", () => {
    const read = vi.fn((machine: Counter) => ({ value: machine.value }));
    const { result } = renderHook(() =>
      useMachineStore(spec({ read, version: (machine) => Math.floor(machine.value / 10) })),
    );
    const calls = read.mock.calls.length;
    act(() => result.current.store.act((machine) => machine.bump(3)));
    expect(read.mock.calls.length, "same version: not re-read").toBe(calls);
    act(() => result.current.store.act((machine) => machine.bump(10)));
    expect(result.current.snapshot).toEqual({ value: 13 });
  });

  it("keeps one timer, at the machine's deadline, and drops answers for a freed machine", async () => {
    const due = vi.fn((machine: Counter) => machine.bump());
    const { result, unmount } = renderHook(() =>
      useMachineStore(spec({ create: () => new Counter(1_000), due })),
    );
    const { store } = result.current;
    const machine = store.open();
    if (!machine) throw new Error("a mounted store has a machine");
    act(() => store.act((m) => m.bump()));
    expect(vi.getTimerCount()).toBe(1);
    await act(async () => await vi.advanceTimersByTimeAsync(999));
    expect(due).not.toHaveBeenCalled();
    await act(async () => await vi.advanceTimersByTimeAsync(1));
    expect(due).toHaveBeenCalledTimes(1);
    expect(result.current.snapshot).toEqual({ value: 2 });
    unmount();
    expect(vi.getTimerCount()).toBe(0);
    expect(store.answer(machine, (m) => m.bump())).toBeUndefined();
    expect(store.act((m) => m.bump())).toBeUndefined();
  });

  it("makes an on-demand machine at its first use, not at mount", () => {
    const { result } = renderHook(() => useMachineStore(spec({ onDemand: true })));
    expect(made).toBe(0);
    expect(result.current.snapshot).toEqual({ value: -1 });
    act(() => result.current.store.act((machine) => machine.bump()));
    expect(made).toBe(1);
    expect(result.current.snapshot).toEqual({ value: 1 });
  });

  it("hydrates the server's markup from the initial snapshot, then shows the machine's", () => {
    function Show() {
      const { snapshot } = useMachineStore(spec());
      return <output>{snapshot.value}</output>;
    }
    const container = document.createElement("div");
    container.innerHTML = renderToString(<Show />);
    const mismatch = vi.fn();
    act(() => {
      hydrateRoot(container, <Show />, { onRecoverableError: mismatch });
    });
    expect(mismatch).not.toHaveBeenCalled();
    expect(container.textContent).toBe("0");
  });
});
