import { describe, expect, it, vi } from "vitest";
import { findStoredToken, lookupToken } from "./identity";
import { type IdentitySdk, identityFromSdk } from "./identity-sdk";

function storage(entries: Record<string, string>) {
  return { getItem: (key: string) => entries[key] ?? null };
}

describe("token lookup", () => {
  it("takes the SDK's session token before anything stored", () => {
    expect(lookupToken(() => "sdk-token", [storage({ token: "stored" })])).toBe("sdk-token");
  });

  it("falls back to storage when the SDK has none (or throws)", () => {
    expect(lookupToken(() => "", [storage({ token: "stored" })])).toBe("stored");
    expect(
      lookupToken(() => {
        throw new Error("no sdk");
      }, [storage({ token: "stored" })]),
    ).toBe("stored");
    expect(lookupToken(undefined, [storage({})])).toBeUndefined();
  });

  it("tries the keys in order: the SDK's DS first, then sessionToken, then token", () => {
    expect(findStoredToken([storage({ token: "c", sessionToken: "b", DS: "a" })])).toBe("a");
    expect(findStoredToken([storage({ token: "c", sessionToken: "b" })])).toBe("b");
  });

  it("reads JSON values by field: idToken, then sessionToken, then token", () => {
    expect(
      findStoredToken([
        storage({ token: JSON.stringify({ token: "t", sessionToken: "s", idToken: "i" }) }),
      ]),
    ).toBe("i");
    expect(
      findStoredToken([storage({ token: JSON.stringify({ token: "t", sessionToken: "s" }) })]),
    ).toBe("s");
    expect(findStoredToken([storage({ token: JSON.stringify({ token: "t" }) })])).toBe("t");
  });

  it("skips JSON without a token field and moves on to the next key and storage", () => {
    expect(
      findStoredToken([
        storage({ sessionToken: JSON.stringify({ user: "x" }) }),
        storage({ token: "from-session-storage" }),
      ]),
    ).toBe("from-session-storage");
  });

  it("unwraps a JSON string literal and treats anything else as the raw token", () => {
    expect(findStoredToken([storage({ token: '"eyJquoted"' })])).toBe("eyJquoted");
    expect(findStoredToken([storage({ token: "eyJraw.token.sig" })])).toBe("eyJraw.token.sig");
  });
});

describe("identityFromSdk", () => {
  function fakeSdk(overrides: Partial<IdentitySdk> = {}): IdentitySdk {
    return {
      oauth: {
        start: vi.fn(async () => ({ ok: true, data: { url: "http://idp/provider" } })),
        exchange: vi.fn(async () => ({ ok: true, data: { user: { name: "Ada" } } })),
      },
      refresh: vi.fn(async () => ({ ok: true, data: { user: { userId: "U1", email: "a@x" } } })),
      me: vi.fn(async () => ({ ok: true, data: { userId: "U1" } })),
      logout: vi.fn(async () => ({ ok: true })),
      getSessionToken: () => "session-jwt",
      getRefreshToken: () => "refresh-jwt",
      ...overrides,
    };
  }

  it("passes the provider and redirect to the SDK's OAuth start", async () => {
    const sdk = fakeSdk();
    const identity = identityFromSdk(sdk, lookupToken);
    await expect(identity.startOAuth("github", "http://app/auth/callback")).resolves.toEqual({
      ok: true,
      data: { url: "http://idp/provider" },
      error: undefined,
    });
    expect(sdk.oauth.start).toHaveBeenCalledWith("github", "http://app/auth/callback");
  });

  it("keeps the exchange's error code and description for the callback machine", async () => {
    const identity = identityFromSdk(
      fakeSdk({
        oauth: {
          start: vi.fn(),
          exchange: vi.fn(async () => ({
            ok: false,
            error: { errorCode: "E061301", errorDescription: "Failed exchanging" },
          })),
        },
      }),
      lookupToken,
    );
    await expect(identity.exchange("c")).resolves.toEqual({
      ok: false,
      data: null,
      error: { errorCode: "E061301", errorDescription: "Failed exchanging" },
    });
  });

  it("restores the user through refresh, and makes no call without a stored refresh token", async () => {
    const sdk = fakeSdk();
    await expect(identityFromSdk(sdk, lookupToken).restore()).resolves.toEqual({
      status: "signed-in",
      user: { userId: "U1", email: "a@x" },
    });
    const empty = fakeSdk({ getRefreshToken: () => "" });
    await expect(identityFromSdk(empty, lookupToken).restore()).resolves.toEqual({
      status: "none",
    });
    expect(empty.refresh).not.toHaveBeenCalled();
  });

  // A 4xx ends the sign-in (the SDK drops its tokens), 429 included; a 5xx or no answer keeps it.
  it.each([
    [401, { status: "refused", code: 401 }],
    [429, { status: "refused", code: 429 }],
    [503, { status: "unreachable" }],
    [undefined, { status: "unreachable" }],
  ])("tells a refresh answered %s apart", async (code, restored) => {
    const sdk = fakeSdk({ refresh: vi.fn(async () => ({ ok: false, code })) });
    await expect(identityFromSdk(sdk, lookupToken).restore()).resolves.toEqual(restored);
  });
});
