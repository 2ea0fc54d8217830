import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
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
    expect(startOAuth).toHaveBeenCalledWith("discord", `${window.location.origin}/auth/callback`);
    expect(result.current.snapshot.loading).toBe("discord");
    expect(result.current.isDisabled("google")).toBe(true);
    expect(result.current.isDisabled("discord")).toBe(false);
    await act(async () =>
      start.resolve({ ok: true, data: { url: "https://discord.example/oauth" } }),
    );
    expect(redirect).toHaveBeenCalledWith("https://discord.example/oauth");
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
