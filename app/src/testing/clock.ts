// Test helper: the fake clock the machines' hooks run under, and the token their API calls send.
import { act } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";
import { setTokenProvider } from "../lib/api-client";

/** Moves the fake clock `ms` on inside `act`, so the timers and fetches it releases settle. */
export const advance = (ms: number) => act(async () => await vi.advanceTimersByTimeAsync(ms));

/**
 * For every test of the enclosing `describe`: fake timers, and `token` as the session's token (as
 * the session provider registers it in the app, the one way authenticated calls find a token);
 * real timers, no token and no stubbed globals after.
 */
export function fakeClockWithToken(token: string): void {
  beforeEach(() => {
    vi.useFakeTimers();
    setTokenProvider(() => token);
  });
  afterEach(() => {
    setTokenProvider(undefined);
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}
