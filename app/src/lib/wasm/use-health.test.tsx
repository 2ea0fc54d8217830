import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mockFetch } from "./test-network";
import { useHealth } from "./use-health";

// Real wasm HealthMachine; only fetch (the network boundary) is mocked.
describe("useHealth", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const flush = () => act(async () => await vi.advanceTimersByTimeAsync(0));

  it("checks on mount: 200 is healthy, 503 unhealthy with the console message", async () => {
    mockFetch({ "/health": { status: 200 }, "/db-health": { status: 503 } });
    const { result } = renderHook(() => useHealth({ ethereal: false, force: false }));
    expect(result.current).toEqual({ api: "unknown", db: "unknown", queue: "unknown" });
    await flush();
    expect(result.current).toEqual({ api: "healthy", db: "unhealthy", queue: "unknown" });
    expect(console.error).toHaveBeenCalledWith("Database health check failed");
  });

  it("polls again at exactly 30 000 ms", async () => {
    let apiStatus = 200;
    const calls = mockFetch({ "/health": () => ({ status: apiStatus }), "/db-health": "network" });
    const { result } = renderHook(() =>
      useHealth({ ethereal: false, force: false, telekinesisQueueUrl: "https://q.example/1" }),
    );
    await flush();
    expect(result.current).toEqual({ api: "healthy", db: "unhealthy", queue: "healthy" });
    apiStatus = 500;
    await act(async () => await vi.advanceTimersByTimeAsync(29_999));
    expect(calls.filter((c) => c.path === "/health")).toHaveLength(1);
    expect(result.current.api).toBe("healthy");
    await act(async () => await vi.advanceTimersByTimeAsync(1));
    expect(calls.filter((c) => c.path === "/health")).toHaveLength(2);
    expect(result.current.api).toBe("unhealthy");
    expect(console.error).toHaveBeenCalledWith("API health check failed");
  });

  it("ethereal without force shows n/a and fetches nothing", async () => {
    const calls = mockFetch({});
    const { result } = renderHook(() => useHealth({ ethereal: true, force: false }));
    await flush();
    expect(result.current.api).toBe("n/a");
    expect(result.current.db).toBe("n/a");
    expect(calls).toHaveLength(0);
  });

  it("stops polling after unmount", async () => {
    const calls = mockFetch({ "/health": { status: 200 }, "/db-health": { status: 200 } });
    const { unmount } = renderHook(() => useHealth({ ethereal: false, force: false }));
    await flush();
    unmount();
    await act(async () => await vi.advanceTimersByTimeAsync(60_000));
    expect(calls).toHaveLength(2);
  });
});
