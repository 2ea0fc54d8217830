import { describe, expect, it } from "vitest";
import { parseFlags, parseType, prerenderVariants, variantKey } from "./variant";

describe("variantKey", () => {
  it("is signin-apotheosis-110 for the defaults (sanctified on, no type, no flags)", () => {
    expect(variantKey({})).toBe("signin-apotheosis-110");
  });

  it("names the nav: open when not sanctified, emulator when the runtime config marks it", () => {
    expect(variantKey({ sanctified: false })).toBe("open-apotheosis-100");
    expect(variantKey({ sanctified: true, identityEmulator: true })).toBe(
      "emulator-apotheosis-110",
    );
    // The emulator marker only changes the nav in sanctified mode.
    expect(variantKey({ sanctified: false, identityEmulator: true })).toBe("open-apotheosis-100");
  });

  it("reads the type case-insensitively; unknown types are apotheosis", () => {
    expect(variantKey({ deploymentType: " TeleKinesis " })).toBe("signin-telekinesis-110");
    expect(variantKey({ deploymentType: "nonsense" })).toBe("signin-apotheosis-110");
  });

  it("makes ethereal by type or by flag, with apotheosis off", () => {
    expect(variantKey({ deploymentType: "ethereal" })).toBe("signin-ethereal-011");
    expect(variantKey({ deploymentType: "apotheosis", deploymentFlags: '{"ethereal":true}' })).toBe(
      "signin-ethereal-011",
    );
    expect(
      variantKey({ deploymentType: "metagenesis", deploymentFlags: '{"apotheosis":false}' }),
    ).toBe("signin-metagenesis-010");
  });

  it("lets the sanctified switch override flags.sanctified", () => {
    expect(variantKey({ sanctified: false, deploymentFlags: '{"sanctified":true}' })).toBe(
      "open-apotheosis-100",
    );
    expect(variantKey({ sanctified: true, deploymentFlags: '{"sanctified":false}' })).toBe(
      "signin-apotheosis-110",
    );
  });

  it("reads unreadable flags as the defaults", () => {
    for (const raw of ["{", "[]", '{"apotheosis":"no"}', '{"typo":true}', "null"]) {
      expect(parseFlags(raw)).toEqual({ apotheosis: true, sanctified: false, ethereal: false });
    }
    expect(variantKey({ deploymentFlags: '{"apotheosis":false,"typo":true}' })).toBe(
      "signin-apotheosis-110",
    );
  });

  it("parses the four types", () => {
    expect(["apotheosis", "ETHEREAL", "metagenesis", "telekinesis"].map(parseType)).toEqual([
      "apotheosis",
      "ethereal",
      "metagenesis",
      "telekinesis",
    ]);
  });
});

describe("prerenderVariants", () => {
  it("covers every e2e server and make run, each key once", () => {
    const keys = prerenderVariants().map(variantKey);
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
