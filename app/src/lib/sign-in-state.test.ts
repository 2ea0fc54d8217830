import { afterEach, describe, expect, it } from "vitest";
import { callbackUrl, newSignInState, SIGN_IN_STATE_KEY, takeSignInState } from "./sign-in-state";

describe("the sign-in's state", () => {
  afterEach(() => sessionStorage.clear());

  it("is taken once: reading it removes it", () => {
    const state = newSignInState();
    expect(takeSignInState()).toBe(state);
    expect(sessionStorage.getItem(SIGN_IN_STATE_KEY)).toBeNull();
    expect(takeSignInState()).toBeNull();
  });

  it("a newer sign-in replaces the older one's state", () => {
    newSignInState();
    const latest = newSignInState();
    expect(takeSignInState()).toBe(latest);
  });

  it("storage that throws reads as no state", () => {
    const broken = {
      getItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
      removeItem: () => {},
    };
    expect(takeSignInState(broken)).toBeNull();
  });

  it("rides in the callback URL's query", () => {
    expect(callbackUrl("https://mg.example", "a-b_c")).toBe(
      "https://mg.example/auth/callback?state=a-b_c",
    );
  });
});
