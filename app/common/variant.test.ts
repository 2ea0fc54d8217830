import { describe, expect, it } from "vitest";
import { navOf, prerenderVariants, variantKey } from "./variant";

// The key's rules live in the wasm core (src/lib/wasm/variant-key.test.ts runs every shared case
// through it); here only its spelling.
describe("variantKey", () => {
  it("spells nav, type and the three flags as bits", () => {
    expect(
      variantKey("signin", {
        type: "apotheosis",
        flags: { apotheosis: true, sanctified: true, ethereal: false },
      }),
    ).toBe("signin-apotheosis-110");
    expect(
      variantKey("open", {
        type: "ethereal",
        flags: { apotheosis: false, sanctified: false, ethereal: true },
      }),
    ).toBe("open-ethereal-001");
  });

  it("names the nav: open without sign-in, emulator only in sanctified mode", () => {
    expect(navOf(false, false)).toBe("open");
    expect(navOf(false, true)).toBe("open");
    expect(navOf(true, false)).toBe("signin");
    expect(navOf(true, true)).toBe("emulator");
  });
});

describe("prerenderVariants", () => {
  it("spans each nav mode and each deployment type, with the apotheosis flag on and off", () => {
    const variants = prerenderVariants();
    expect(variants).toHaveLength(21);
    expect(new Set(variants.map((v) => v.deploymentType))).toEqual(
      new Set(["apotheosis", "telekinesis", "metagenesis", "ethereal"]),
    );
  });
});
