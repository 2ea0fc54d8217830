import { act, render, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The provider before any page has loaded the wasm core (a docs page): the theme machine's owner is
// its own chunk, fetched on the first toggle or storage change; nothing the visitor did is lost.
describe("ThemeProvider before the wasm core is loaded", () => {
  beforeEach(() => {
    localStorage.clear();
    document.documentElement.dataset.theme = "cosmic";
    // Fresh modules: no page has instantiated the core in this registry yet.
    vi.resetModules();
  });
  afterEach(() => {
    localStorage.clear();
    delete document.documentElement.dataset.theme;
  });

  async function mount() {
    const { ThemeProvider, useThemeContext } = await import("./theme-provider");
    const { loadedCore } = await import("../lib/wasm/load-core");
    let toggle: () => void = () => {};
    function Take() {
      toggle = useThemeContext().toggle;
      return null;
    }
    render(
      <ThemeProvider>
        <Take />
      </ThemeProvider>,
    );
    return { toggle: () => act(() => toggle()), loadedCore };
  }

  it("loads nothing until asked, then applies every toggle asked for meanwhile", async () => {
    const { toggle, loadedCore } = await mount();
    expect(loadedCore()).toBeUndefined();
    toggle();
    toggle();
    toggle();
    await waitFor(() => expect(localStorage.getItem("theme")).toBe("void"));
    expect(document.documentElement.dataset.theme).toBe("void");
    expect(loadedCore()).toBeDefined();
    // The owner is there now: a toggle is applied at once.
    toggle();
    expect(document.documentElement.dataset.theme).toBe("cosmic");
  });

  it("follows a change another tab made before the owner was there", async () => {
    await mount();
    localStorage.setItem("theme", "void");
    act(() => {
      window.dispatchEvent(new StorageEvent("storage", { key: "theme", newValue: "void" }));
    });
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe("void"));
  });
});
