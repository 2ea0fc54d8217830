import type { WisdomAnswer, WisdomFailure } from "@common/http-types";
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { advance } from "@/testing/clock";
import { mockFetch } from "@/testing/network";
import { useWisdom } from "./use-wisdom";

// Real wasm WisdomMachine; only fetch (the network boundary) is mocked.
describe("useWisdom", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** The hook, loaded, after one click and the request's answer. */
  async function askedOnce() {
    const { result } = renderHook(() => useWisdom());
    await advance(0);
    act(() => result.current.ask());
    const whileAsking = result.current.disabled;
    await advance(0);
    return { result, whileAsking };
  }

  /** The answer stays `status` until exactly `ms` after it came, then the hook is idle again. */
  async function expectShownFor(result: { current: ReturnType<typeof useWisdom> }, ms: number) {
    const status = result.current.snapshot.status;
    await advance(ms - 1);
    expect(result.current.snapshot.status).toBe(status);
    await advance(1);
    expect(result.current.snapshot).toEqual({ status: "idle" });
  }

  it("shows the quote, disables while testing, and resets at exactly 5 000 ms", async () => {
    const calls = mockFetch({
      "/api/wisdom": {
        status: 200,
        body: { wisdom: { quote: "Know thyself.", orator: "Socrates" } } satisfies WisdomAnswer,
      },
    });
    const { result, whileAsking } = await askedOnce();
    expect(whileAsking).toBe(true);
    expect(calls[0]?.method).toBe("POST");
    expect(result.current.snapshot).toEqual({
      status: "success",
      quote: "Know thyself.",
      orator: "Socrates",
    });
    await expectShownFor(result, 5_000);
  });

  it("shows the server's error, instructions and message for 5 s", async () => {
    mockFetch({
      "/api/wisdom": {
        status: 503,
        body: {
          code: "wisdom_empty",
          error: "No wisdom",
          instructions: "Seed it",
          message: "empty table",
        } satisfies WisdomFailure,
      },
    });
    const { result } = await askedOnce();
    expect(result.current.snapshot).toEqual({
      status: "error",
      error: "No wisdom",
      instructions: "Seed it",
      message: "empty table",
    });
    await expectShownFor(result, 5_000);
  });

  it("says 'Failed to connect to API' on a network failure and resets at 3 000 ms", async () => {
    mockFetch({ "/api/wisdom": "network" });
    const { result } = await askedOnce();
    expect(result.current.snapshot).toEqual({ status: "error", error: "Failed to connect to API" });
    await expectShownFor(result, 3_000);
  });

  it("ignores clicks while a request runs", async () => {
    const calls = mockFetch({
      "/api/wisdom": { status: 200, body: { wisdom: { quote: "Q", orator: "O" } } },
    });
    const { result } = renderHook(() => useWisdom());
    await advance(0);
    act(() => {
      result.current.ask();
      result.current.ask();
    });
    await advance(0);
    expect(calls).toHaveLength(1);
  });
});
