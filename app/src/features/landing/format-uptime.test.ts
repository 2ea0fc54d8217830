import { describe, expect, it } from "vitest";
import { formatUptime } from "./format-uptime";

describe("formatUptime", () => {
  it("floors to two decimals and drops trailing zeros", () => {
    expect(formatUptime(100)).toBe("100%");
    expect(formatUptime(99.999)).toBe("99.99%");
    expect(formatUptime(97.5)).toBe("97.5%");
    expect(formatUptime(0)).toBe("0%");
    expect(formatUptime(null)).toBeUndefined();
  });
});
