// index.html applies the stored theme before first paint with a line of JavaScript, since the wasm
// cannot load before paint: the one copy of ThemeMachine's reading rule (core-wasm/src/theme.rs,
// `Theme::from_stored`) outside Rust. This runs that very script against the real machine for the
// stored values that matter, so the copy cannot drift from the rule.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ThemeMachine } from "./core";

// A variable, not a literal: Vite would turn `new URL("<literal>", import.meta.url)` into an asset URL.
const indexHtml = "../../../index.html";
const html = readFileSync(fileURLToPath(new URL(indexHtml, import.meta.url)), "utf8");
const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? "");
const themeScript = scripts.find((script) => script.includes("dataset.theme"));

/** The `data-theme` the script sets when storage holds `stored` under the machine's key. */
function applied(stored: string | null): string | undefined {
  const root = { dataset: {} as Record<string, string> };
  const storage = {
    getItem: (key: string) => (key === ThemeMachine.storageKey() ? stored : null),
  };
  const run = new Function("document", "localStorage", "navigator", themeScript ?? "");
  run({ documentElement: root }, storage, { userAgent: "test" });
  return root.dataset.theme;
}

describe("index.html's theme script", () => {
  it("exists, inline in the head", () => {
    expect(themeScript).toBeDefined();
  });

  it("reads every stored value as ThemeMachine does", () => {
    for (const stored of [null, "void", "cosmic", "VOID", " void", "void ", "dark", "", "null"]) {
      const machine = new ThemeMachine(stored ?? undefined);
      try {
        expect(applied(stored), `stored ${JSON.stringify(stored)}`).toBe(machine.theme);
      } finally {
        machine.free();
      }
    }
  });
});
