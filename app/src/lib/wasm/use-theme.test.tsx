import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useTheme } from "./use-theme";

describe("useTheme (real wasm ThemeMachine)", () => {
  beforeEach(() => {
    localStorage.clear();
    delete document.documentElement.dataset.theme;
  });
  afterEach(() => localStorage.clear());

  it("starts cosmic when nothing is stored", () => {
    const { result } = renderHook(() => useTheme());
    expect(result.current.theme).toBe("cosmic");
  });

  it("reads the stored void preference", () => {
    localStorage.setItem("theme", "void");
    const { result } = renderHook(() => useTheme());
    expect(result.current.theme).toBe("void");
  });

  it("reads an unknown stored value as cosmic", () => {
    localStorage.setItem("theme", "neon");
    const { result } = renderHook(() => useTheme());
    expect(result.current.theme).toBe("cosmic");
  });

  it("toggles, writes localStorage and data-theme, and toggles back", () => {
    const { result } = renderHook(() => useTheme());
    act(() => result.current.toggle());
    expect(result.current.theme).toBe("void");
    expect(localStorage.getItem("theme")).toBe("void");
    expect(document.documentElement.dataset.theme).toBe("void");
    act(() => result.current.toggle());
    expect(result.current.theme).toBe("cosmic");
    expect(localStorage.getItem("theme")).toBe("cosmic");
    expect(document.documentElement.dataset.theme).toBe("cosmic");
  });

  it("follows a change made in another tab", () => {
    const { result } = renderHook(() => useTheme());
    act(() => {
      window.dispatchEvent(new StorageEvent("storage", { key: "theme", newValue: "void" }));
    });
    expect(result.current.theme).toBe("void");
    expect(document.documentElement.dataset.theme).toBe("void");
  });
});
