import { act, cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatUptime, type Polled, STATUS_REFRESH_MS, usePolled } from "./status-api";

function Probe({ load, seen }: { load: () => Promise<number>; seen: Polled<number>[] }) {
  seen.push(usePolled("probe", load));
  return null;
}

describe("usePolled", () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("asks again 30 s after each answer and keeps the last data when a later call fails", async () => {
    vi.useFakeTimers();
    const answers: (() => Promise<number>)[] = [
      () => Promise.resolve(1),
      () => Promise.reject(new Error("The server could not be reached.")),
      () => Promise.resolve(3),
    ];
    const load = vi.fn(() => (answers.shift() ?? (() => Promise.resolve(9)))());
    const seen: Polled<number>[] = [];
    render(<Probe load={load} seen={seen} />);
    expect(seen.at(-1)).toEqual({ data: undefined, error: undefined, loading: true });
    await act(async () => {});
    expect(seen.at(-1)).toEqual({ data: 1, error: undefined, loading: false });

    await act(async () => {
      await vi.advanceTimersByTimeAsync(STATUS_REFRESH_MS - 1);
    });
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(load).toHaveBeenCalledTimes(2);
    expect(seen.at(-1)).toEqual({
      data: 1,
      error: "The server could not be reached.",
      loading: false,
    });

    await act(async () => {
      await vi.advanceTimersByTimeAsync(STATUS_REFRESH_MS);
    });
    expect(seen.at(-1)).toEqual({ data: 3, error: undefined, loading: false });
  });

  it("stops asking once unmounted", async () => {
    vi.useFakeTimers();
    const load = vi.fn(() => Promise.resolve(1));
    const { unmount } = render(<Probe load={load} seen={[]} />);
    await act(async () => {});
    unmount();
    await vi.advanceTimersByTimeAsync(STATUS_REFRESH_MS * 3);
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe("formatUptime", () => {
  it("floors to two decimals and drops trailing zeros", () => {
    expect(formatUptime(100)).toBe("100%");
    expect(formatUptime(99.999)).toBe("99.99%");
    expect(formatUptime(97.5)).toBe("97.5%");
    expect(formatUptime(0)).toBe("0%");
    expect(formatUptime(null)).toBeUndefined();
  });
});
