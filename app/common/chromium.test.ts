// @vitest-environment node
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  chromiumArgs,
  defaultChromiumPath,
  headlessShellPath,
  testChromiumLaunchOptions,
} from "./chromium.mjs";

// chromedriver reads its browser from core-wasm/webdriver.json (the wasm browser tests), which cannot
// import chromium.mjs: the two must launch the same browser the same way.
describe("core-wasm/webdriver.json", () => {
  it("starts the browser chromium.mjs starts, with the same arguments", () => {
    const webdriver = JSON.parse(
      readFileSync(new URL("../../core-wasm/webdriver.json", import.meta.url), "utf8"),
    );
    expect(webdriver["goog:chromeOptions"]).toEqual({
      binary: defaultChromiumPath,
      args: chromiumArgs,
    });
  });
});

// The tests' browser is the headless shell with the full browser's arguments, less the one that asks
// the full browser for its headless mode (the shell has only that mode).
describe("testChromiumLaunchOptions", () => {
  it("launches the headless shell with the same arguments but --headless=new", () => {
    expect(testChromiumLaunchOptions).toEqual({
      executablePath: process.env.CHROMIUM_PATH ?? headlessShellPath,
      args: chromiumArgs.filter((arg) => arg !== "--headless=new"),
    });
    expect(testChromiumLaunchOptions.args).toHaveLength(chromiumArgs.length - 1);
  });
});
