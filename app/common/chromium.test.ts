// @vitest-environment node
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { chromiumArgs, defaultChromiumPath } from "./chromium.mjs";

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
