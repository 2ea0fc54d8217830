// Runs before each test file. The unit tests share one jsdom per worker (`isolate: false` in
// vite.config.ts: a fresh jsdom for each of the files cost about 80 % of the suite's time), so each
// file starts from what a fresh jsdom would give it: an empty document, no stored values, no
// attributes left on <html> by an earlier file.
import { cleanup } from "@testing-library/react";
import { afterAll, beforeAll } from "vitest";

function reset(): void {
  if (typeof document === "undefined") return;
  cleanup();
  document.head.innerHTML = "";
  document.body.innerHTML = "";
  for (const name of document.documentElement.getAttributeNames()) {
    if (name !== "lang") document.documentElement.removeAttribute(name);
  }
  localStorage.clear();
  sessionStorage.clear();
}

beforeAll(reset);
afterAll(reset);
