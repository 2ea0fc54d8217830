import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useTelekinesisCounters } from "./use-telekinesis-counters";

// Real wasm TelekinesisCounters; no I/O at all.
describe("useTelekinesisCounters", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("is deterministic for a seed, labelled demo data, and redraws at exactly 3 000 ms", async () => {
    const a = renderHook(() => useTelekinesisCounters(42));
    const b = renderHook(() => useTelekinesisCounters(42));
    await act(async () => {});
    expect(a.result.current.label).toMatch(/^Demo data/);
    const first = a.result.current.counters;
    expect(first?.generation).toBe(0);
    expect(first).toEqual(b.result.current.counters);
    await act(async () => await vi.advanceTimersByTimeAsync(2_999));
    expect(a.result.current.counters).toEqual(first);
    await act(async () => await vi.advanceTimersByTimeAsync(1));
    expect(a.result.current.counters?.generation).toBe(1);
    expect(a.result.current.counters).toEqual(b.result.current.counters);
    await act(async () => await vi.advanceTimersByTimeAsync(3_000));
    expect(a.result.current.counters?.generation).toBe(2);
  });

  it("holds the machine's first draw in the very first render, the same on every load (prerender = hydration)", () => {
    const renders: unknown[] = [];
    const a = renderHook(() => {
      const value = useTelekinesisCounters();
      renders.push(value.counters);
      return value;
    });
    const b = renderHook(() => useTelekinesisCounters());
    expect(renders[0]).not.toBeNull();
    expect(renders[0]).toMatchObject({ generation: 0 });
    expect(b.result.current.counters).toEqual(renders[0]);
    expect(a.result.current.counters).toEqual(renders[0]);
  });
});
