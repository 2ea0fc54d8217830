import type { ComponentStatus, StatusSummary } from "@common/http-types";
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mockFetch } from "@/testing/network";
import { databaseOf, statusOf, useHealth } from "./use-health";

/** A GET /api/status answer (the server's type) with these 24 h uptimes. */
function summary(uptimes: Record<string, number | null>): StatusSummary {
  const component = (id: string, day: number | null): ComponentStatus => ({
    id,
    name: id,
    state: "operational",
    uptime: { "24h": day, "7d": day, "30d": day, "90d": day },
    latency_24h: { p50_ms: 1, p95_ms: 2 },
    last_checked_at: "2026-01-01T00:00:00Z",
    viewpoints: [],
    status: "operational",
    status_source: null,
    status_words: "Operational",
    status_note: null,
  });
  return {
    state: "operational",
    updated_at: "2026-01-01T00:00:00Z",
    check_interval_seconds: 30,
    instance_id: "local",
    components: Object.entries(uptimes).map(([id, day]) => component(id, day)),
    viewpoints: [],
    open_incidents: [],
    recent_incidents: [],
    notices: [],
    indicator: "none",
    description: "All Systems Operational",
    not_configured: [],
    open_operator_incidents: 0,
    notices_digest: "",
    page_url: "http://localhost:3000/apotheosis",
  };
}

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
    // No uptimes: GET /api/status failed (not routed here).
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

  it("reads the server's uptimes in the same rounds, keeping the last ones while a read fails", async () => {
    let answer: { status: number; body?: unknown } = {
      status: 200,
      body: summary({ api: 99.5, db: null }),
    };
    const calls = mockFetch({
      "/health": { status: 200 },
      "/db-health": { status: 200 },
      "/api/status": () => answer,
    });
    const { result } = renderHook(() => useHealth({ ethereal: false, force: false }));
    await flush();
    expect(result.current.uptime).toEqual({ api: 99.5, db: null });
    answer = { status: 503 };
    await act(async () => await vi.advanceTimersByTimeAsync(29_999));
    expect(calls.filter((c) => c.path === "/api/status")).toHaveLength(1);
    await act(async () => await vi.advanceTimersByTimeAsync(1));
    expect(calls.filter((c) => c.path === "/api/status")).toHaveLength(2);
    expect(result.current.uptime).toEqual({ api: 99.5, db: null });
    answer = { status: 200, body: summary({ api: 100, db: 98.25, queue: null }) };
    await act(async () => await vi.advanceTimersByTimeAsync(30_000));
    expect(result.current.uptime).toEqual({ api: 100, db: 98.25, queue: null });
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
    expect(calls.map((c) => c.path).sort()).toEqual(["/api/status", "/db-health", "/health"]);
  });
});

describe("reading the server's answers", () => {
  it("takes the database's name from /db-health, nothing from anything else", () => {
    expect(databaseOf('{"database":"postgres","latency_ms":1,"status":"ok"}')).toBe("postgres");
    expect(databaseOf('{"database":"oracle"}')).toBeUndefined();
    expect(databaseOf('{"database":"toString"}')).toBeUndefined();
    expect(databaseOf("<html>")).toBeUndefined();
  });

  it("takes each component's 24 h uptime and stated status from /api/status, nothing else", () => {
    const answer = summary({ api: 99.9, queue: null });
    const [api] = answer.components;
    if (api)
      Object.assign(api, {
        status: "major_outage",
        status_source: "declared",
        status_words: "Major outage",
        status_note: "Declared by the operators",
      });
    expect(statusOf(JSON.stringify(answer))).toEqual({
      uptime: { api: 99.9, queue: null },
      stated: {
        api: { status: "major_outage", words: "Major outage", note: "Declared by the operators" },
        queue: { status: "operational", words: "Operational", note: "" },
      },
    });
    expect(statusOf('{"components":[{"id":"api"}]}')).toEqual({
      uptime: { api: null },
      stated: {},
    });
    expect(statusOf("{}")).toBeUndefined();
    expect(statusOf("not json")).toBeUndefined();
    expect(statusOf(undefined)).toBeUndefined();
  });
});
