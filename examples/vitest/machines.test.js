// Vitest with the `browser` resolve condition and jsdom.
import * as core from "mg-core";
import * as graphics from "mg-core/graphics";
import { expect, test } from "vitest";
import { driveMachines, fillHypercube } from "../common/check.mjs";

test("the machines and a graphics buffer", () => {
  expect(driveMachines(core)).toContain("theme cosmic->void");
  expect(fillHypercube(graphics)).toContain("hypercube");
});
