import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { SIGN_IN_STATE_KEY } from "../sign-in-state";
import { type OAuthStartAnswer, useLogin } from "./use-login";

// Real wasm LoginMachine; the identity SDK's start operation is injected (no network here).
describe("useLogin", () => {
  function deferred() {
    let resolve!: (answer: OAuthStartAnswer) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<OAuthStartAnswer>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  }

  it("lists the six providers", () => {
    const { result } = renderHook(() => useLogin({ startOAuth: vi.fn() }));
    expect(result.current.providers.map((p) => p.id)).toEqual([
      "google",
      "github",
      "microsoft",
      "facebook",
      "discord",
      "linkedin",
    ]);
  });

  it("marks the chosen provider loading, disables the others, and redirects to the SDK's url", async () => {
    const start = deferred();
    const startOAuth = vi.fn(() => start.promise);
    const redirect = vi.fn();
    const { result } = renderHook(() => useLogin({ startOAuth, redirect }));
    await act(async () => {});
    act(() => result.current.choose("discord"));
    const state = sessionStorage.getItem(SIGN_IN_STATE_KEY);
    expect(startOAuth).toHaveBeenCalledWith(
      "discord",
      `${window.location.origin}/auth/callback?state=${state}`,
    );
    expect(result.current.snapshot.loading).toBe("discord");
    expect(result.current.isDisabled("google")).toBe(true);
    expect(result.current.isDisabled("discord")).toBe(false);
    await act(async () =>
      start.resolve({ ok: true, data: { url: "https://discord.example/oauth" } }),
    );
    expect(redirect).toHaveBeenCalledWith("https://discord.example/oauth");
  });

  it("binds each sign-in to a fresh random state, stored in this tab and carried by the redirect URL", async () => {
    const startOAuth = vi.fn(
      async (_provider: string, _redirectUrl: string): Promise<OAuthStartAnswer> => ({ ok: false }),
    );
    const { result } = renderHook(() => useLogin({ startOAuth, redirect: vi.fn() }));
    await act(async () => {});
    const states: string[] = [];
    for (const provider of ["google", "github"]) {
      await act(async () => result.current.choose(provider));
      const redirectUrl = new URL(String(startOAuth.mock.lastCall?.[1]));
      expect(`${redirectUrl.origin}${redirectUrl.pathname}`).toBe(
        `${window.location.origin}/auth/callback`,
      );
      const state = redirectUrl.searchParams.get("state") ?? "";
      // 16 random bytes in base64url: 22 characters, safe in a URL as they are.
      expect(state).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(sessionStorage.getItem(SIGN_IN_STATE_KEY)).toBe(state);
      states.push(state);
    }
    expect(states[0]).not.toBe(states[1]);
  });

  it("starts no sign-in it could not check on return (no sessionStorage)", async () => {
    const startOAuth = vi.fn();
    const setItem = vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("denied", "SecurityError");
    });
    try {
      const { result } = renderHook(() => useLogin({ startOAuth, redirect: vi.fn() }));
      await act(async () => {});
      act(() => result.current.choose("github"));
      expect(startOAuth).not.toHaveBeenCalled();
      expect(result.current.snapshot).toEqual({
        loading: null,
        error: "An error occurred with GitHub login. Please try again.",
      });
    } finally {
      setItem.mockRestore();
    }
  });

  it("says 'Failed to connect with {provider}' when the start fails", async () => {
    const { result } = renderHook(() =>
      useLogin({ startOAuth: async () => ({ ok: false }), redirect: vi.fn() }),
    );
    await act(async () => {});
    await act(async () => result.current.choose("google"));
    expect(result.current.snapshot).toEqual({
      loading: null,
      error: "Failed to connect with Google. Please try again.",
    });
    expect(result.current.isDisabled("github")).toBe(false);
  });

  it("says 'An error occurred with {provider} login' when the start throws", async () => {
    const start = deferred();
    const { result } = renderHook(() =>
      useLogin({ startOAuth: () => start.promise, redirect: vi.fn() }),
    );
    await act(async () => {});
    act(() => result.current.choose("linkedin"));
    await act(async () => start.reject(new Error("boom")));
    expect(result.current.snapshot.error).toBe(
      "An error occurred with LinkedIn login. Please try again.",
    );
  });
});
