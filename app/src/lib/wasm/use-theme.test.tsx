import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { loadCore } from "./load-core";
import { useTheme } from "./use-theme";

describe("useTheme (real wasm ThemeMachine)", () => {
  // The hook never loads the wasm at mount (index.html's script has set the theme); with the core
  // already instantiated, as on any page that runs a machine, it owns the theme from the first effect.
  beforeAll(() => loadCore());
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

describe("useTheme before the wasm core is loaded", () => {
  beforeEach(() => {
    localStorage.clear();
    vi.resetModules();
  });
  afterEach(() => {
    localStorage.clear();
    delete document.documentElement.dataset.theme;
  });

  it("leaves the theme index.html applied, then loads the core on the first toggle", async () => {
    // Fresh modules: no page has instantiated the core in this registry yet.
    const { loadedCore } = await import("./load-core");
    const { useTheme: freshUseTheme } = await import("./use-theme");
    expect(loadedCore()).toBeUndefined();
    localStorage.setItem("theme", "void");
    document.documentElement.dataset.theme = "void";
    const { result } = renderHook(() => freshUseTheme());
    // No machine yet, so no theme of its own: the page shows what the script applied.
    expect(result.current.theme).toBeUndefined();
    expect(document.documentElement.dataset.theme).toBe("void");
    expect(loadedCore()).toBeUndefined();
    act(() => result.current.toggle());
    await waitFor(() => expect(result.current.theme).toBe("cosmic"));
    expect(loadedCore()).toBeDefined();
    expect(localStorage.getItem("theme")).toBe("cosmic");
    expect(document.documentElement.dataset.theme).toBe("cosmic");
  });
});
