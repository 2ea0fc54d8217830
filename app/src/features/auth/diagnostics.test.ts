import { afterEach, describe, expect, it, vi } from "vitest";
import { mockFetch } from "@/testing/network";
import { setTokenProvider } from "../../lib/api-client";
import type { Identity } from "../../lib/identity";
import { checkApi, checkConfig, checkIdentityService, checkRedirectAllowed } from "./diagnostics";

// fetch (and the identity SDK's OAuth start) are the boundary; each check's verdict is real.
const config = { sanctified: true, projectId: "Ptest", baseUrl: "http://idp" };

afterEach(() => setTokenProvider(undefined));

describe("diagnostic checks", () => {
  it("fails the configuration check without a project id", () => {
    expect(checkConfig(config).passed).toBe(true);
    expect(checkConfig({ ...config, projectId: undefined })).toMatchObject({
      passed: false,
      hint: expect.stringMatching(/IDENTITY_PROJECT_ID/),
    });
  });

  it("passes the identity service when its keys endpoint lists keys", async () => {
    const keys = "http://idp/v2/keys/Ptest";
    const calls = mockFetch({ [keys]: { status: 200, body: { keys: [{ kid: "k" }] } } });
    expect((await checkIdentityService(config)).passed).toBe(true);
    expect(calls.map((call) => call.path)).toEqual([keys]);
    mockFetch({ [keys]: { status: 404, body: {} } });
    expect((await checkIdentityService(config)).passed).toBe(false);
    mockFetch({ [keys]: "network" });
    expect((await checkIdentityService(config)).hint).toMatch(/could not be reached/);
  });

  it("asks the identity provider to start OAuth back to this origin", async () => {
    const startOAuth = vi.fn(async () => ({ ok: true, data: { url: "http://idp/p" } }));
    const identity = { startOAuth } as unknown as Identity;
    expect((await checkRedirectAllowed(async () => identity, "http://app")).passed).toBe(true);
    expect(startOAuth).toHaveBeenCalledWith("discord", "http://app/auth/callback");
    const refusing = {
      startOAuth: async () => ({ ok: false, error: { errorDescription: "redirect not allowed" } }),
    } as unknown as Identity;
    expect((await checkRedirectAllowed(async () => refusing, "http://app")).hint).toMatch(
      /redirect not allowed/,
    );
  });

  it("passes the API check only when the API accepts the session token", async () => {
    setTokenProvider(() => "jwt");
    const calls = mockFetch({ "/api/auth/current-user": { status: 200, body: { data: {} } } });
    expect((await checkApi()).passed).toBe(true);
    expect(calls[0]?.authorization).toBe("Bearer jwt");
    mockFetch({ "/api/auth/current-user": { status: 401, body: { error: "Unauthorized" } } });
    expect((await checkApi()).hint).toMatch(/rejected the session/);
    mockFetch({ "/api/auth/current-user": "network" });
    expect((await checkApi()).hint).toMatch(/did not answer/);
  });
});
