// The prerender variant key through the real wasm core: the build keys each variant by what the
// core's DeploymentInfo resolves, and the server (mg-domain) must pick the same key for the same
// configuration. Both sides check every case of common/variant-cases.json.

import { navOf, prerenderVariants, type VariantInput, variantKey } from "@common/variant";
import cases from "@common/variant-cases.json";
import { describe, expect, it, vi } from "vitest";
import { Deployment } from "./core";

/** The key the build gives a configuration (scripts/prerender.mjs via entry-server's variantKeyOf). */
function keyOf(config: VariantInput): string {
  const sanctified = config.sanctified ?? true;
  const deployment = new Deployment(
    { deploymentType: config.deploymentType, flagsJson: config.deploymentFlags, sanctified },
    0,
  );
  try {
    return variantKey(navOf(sanctified, config.identityEmulator === true), deployment.info());
  } finally {
    deployment.free();
  }
}

describe("the prerender variant key", () => {
  it.each(cases.cases)("$config -> $key", ({ config, key }) => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(keyOf(config as VariantInput)).toBe(key);
  });

  it("gives every prerendered variant its own key, covering make run and every e2e server", () => {
    const keys = prerenderVariants().map(keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of [
      "signin-apotheosis-110",
      "open-apotheosis-100",
      "emulator-apotheosis-110",
      "signin-ethereal-011",
      "signin-telekinesis-110",
      "signin-metagenesis-010",
    ]) {
      expect(keys).toContain(key);
    }
  });
});
