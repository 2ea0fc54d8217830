import { describe, expect, it } from "vitest";
import { normaliseCallbackSearch } from "./callback-page";

describe("normaliseCallbackSearch", () => {
  it("hands a provider's ?err= to the callback machine as ?error=", () => {
    expect(normaliseCallbackSearch("?err=access_denied")).toBe(
      "?err=access_denied&error=access_denied",
    );
  });

  it("leaves a code, or an existing error, alone", () => {
    expect(normaliseCallbackSearch("?code=abc")).toBe("?code=abc");
    expect(normaliseCallbackSearch("?err=a&error=b")).toBe("?err=a&error=b");
    expect(normaliseCallbackSearch("")).toBe("");
  });
});
