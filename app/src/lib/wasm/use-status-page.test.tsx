import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { advance } from "@/testing/clock";
import { StatusPageMachine } from "./status-core";
import { useStatusPage } from "./use-status-page";

// The real wasm StatusPageMachine; only fetch (the network boundary) is replaced.
const QUEUE = "https://queue.example/health";
const NOW = Date.parse("2026-11-25T12:00:00Z");

function page(updatedAt: string, since: string | null = null) {
  const point = (start: string) => ({
    start,
    checks: 4,
    failures: 0,
    uptime: 100,
    latency_p50_ms: 1.5,
    latency_p95_ms: 3,
    incidents: 0,
  });
  return {
    summary: {
      updated_at: updatedAt,
      components: [
        {
          id: "api",
          name: "API",
          uptime: { "24h": 100, "7d": 100, "30d": 100, "90d": 99.996 },
          latency_24h: { p50_ms: 1.5, p95_ms: 3 },
          last_checked_at: updatedAt,
        },
      ],
      open_incidents: [],
      recent_incidents: [],
    },
    history: [
      {
        component: "api",
        daily: { points: [point("2026-11-25T00:00:00.000Z")] },
        recent: { points: [point("2026-11-25T11:45:00.000Z")] },
      },
    ],
    since,
  };
}

interface Call {
  url: string;
  ifNoneMatch: string | null;
}

function network(answer: (url: string, ifNoneMatch: string | null) => Response | "fail") {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init?: RequestInit) => {
      const ifNoneMatch = new Headers(init?.headers).get("If-None-Match");
      calls.push({ url: String(input), ifNoneMatch });
      const result = answer(String(input), ifNoneMatch);
      if (result === "fail") throw new TypeError("Failed to fetch");
      return result;
    }),
  );
  return calls;
}

const json = (body: unknown, etag: string) =>
  new Response(JSON.stringify(body), { status: 200, headers: { ETag: etag } });

describe("useStatusPage", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
    vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("asks once per round and revalidates the page with its ETag", async () => {
    const calls = network((url, tag) => {
      if (url === "/api/status/page") return json(page("2026-11-25T11:59:30.000Z"), '"t1"');
      if (url.startsWith("/api/status/page?since=")) {
        return tag === '"t1"'
          ? new Response(null, { status: 304 })
          : new Response("", { status: 500 });
      }
      return new Response("{}", { status: 200 });
    });
    const { result } = renderHook(() => useStatusPage({ ethereal: false, force: false }));
    expect(result.current.live[0]?.label).toBe("Checking");
    await advance(0);
    const api = result.current.view.cards[0];
    expect(result.current.live[0]?.label).toBe("Healthy");
    expect(api?.uptime.map((cell) => cell.value)).toEqual(["100%", "100%", "100%", "99.99%"]);
    expect(api?.history?.bars.at(-1)?.label).toBe("25 Nov 2026: 100% uptime, 0 incidents");
    // The first round asks for the operators' posts too; the next ones only every two minutes.
    expect(calls.map((c) => c.url)).toEqual([
      "/health",
      "/db-health",
      "/status/notices/list",
      "/api/status/page",
    ]);

    await advance(29_999);
    expect(calls).toHaveLength(4);
    await advance(1);
    expect(calls).toHaveLength(7);
    expect(calls[6]).toEqual({
      url: "/api/status/page?since=2026-11-25T11%3A59%3A30.000Z",
      ifNoneMatch: '"t1"',
    });
    expect(result.current.view.cards[0]?.history?.bars.at(-1)?.tone).toBe("up");
  });

  it("reads the page's answer and builds the view from it in two tasks", async () => {
    network((url) =>
      url === "/api/status/page"
        ? json(page("2026-11-25T11:59:30.000Z"), '"t1"')
        : new Response("{}", { status: 200 }),
    );
    const proto = StatusPageMachine.prototype;
    const { statusResult, view } = proto;
    const order: string[] = [];
    // A message posted while the answer is read is delivered at the next task: it lands between
    // the read and the view only when they are in two tasks.
    vi.spyOn(proto, "statusResult").mockImplementation(function (this: StatusPageMachine, ...args) {
      order.push("read");
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        order.push("next task");
      };
      channel.port2.postMessage(null);
      return statusResult.apply(this, args);
    });
    vi.spyOn(proto, "view").mockImplementation(function (this: StatusPageMachine) {
      if (order.includes("read")) order.push("view");
      return view.apply(this);
    });
    const { result } = renderHook(() => useStatusPage({ ethereal: false, force: false }));
    await advance(0);
    await vi.waitFor(() => expect(order).toContain("view"));
    expect(order.slice(0, 3)).toEqual(["read", "next task", "view"]);
    expect(result.current.view.cards[0]?.history?.bars.at(-1)?.tone).toBe("up");
    vi.restoreAllMocks();
  });

  it("the queue is healthy when its URL answers 2xx, unhealthy on error, unknown without one", async () => {
    let queue: number | "fail" = 204;
    network((url) => {
      if (url === QUEUE) return queue === "fail" ? "fail" : new Response(null, { status: queue });
      return url.startsWith("/api/status/page")
        ? json(page("2026-11-25T11:59:30.000Z"), '"t"')
        : new Response("{}", { status: 200 });
    });
    const { result } = renderHook(() =>
      useStatusPage({ ethereal: false, force: false, telekinesisQueueUrl: QUEUE }),
    );
    await advance(0);
    expect(result.current.live[2]?.health).toBe("healthy");
    expect(result.current.live[2]?.label).toBe("Healthy");
    queue = "fail";
    await advance(30_000);
    expect(result.current.live[2]?.label).toBe("Unhealthy");
    expect(console.error).toHaveBeenCalledWith("Telekinesis health check failed");

    const without = renderHook(() => useStatusPage({ ethereal: false, force: false }));
    await advance(0);
    expect(without.result.current.live[2]?.label).toBe("Unknown");
  });

  it("stops asking after unmount", async () => {
    const calls = network(() => new Response("{}", { status: 200 }));
    const { unmount } = renderHook(() => useStatusPage({ ethereal: false, force: false }));
    await advance(0);
    unmount();
    await advance(180_000);
    expect(calls).toHaveLength(4);
  });

  it("asks for the operators' posts in its rounds, and at once after a post", async () => {
    const calls = network((url) =>
      url === "/status/notices/list"
        ? new Response("<p>Posts</p>", { status: 200, headers: { ETag: '"n1"' } })
        : new Response("{}", { status: 200 }),
    );
    const { result } = renderHook(() => useStatusPage({ ethereal: false, force: false }));
    await advance(0);
    expect(result.current.view.noticesHtml).toBe("<p>Posts</p>");
    const posts = () => calls.filter((c) => c.url === "/status/notices/list");
    await advance(90_000);
    expect(posts()).toHaveLength(1);
    act(() => result.current.posted());
    await advance(0);
    expect(posts()).toHaveLength(2);
    expect(posts()[1]?.ifNoneMatch).toBe('"n1"');
    await advance(119_999);
    expect(posts()).toHaveLength(2);
    await advance(30_000);
    expect(posts()).toHaveLength(3);
  });
});
