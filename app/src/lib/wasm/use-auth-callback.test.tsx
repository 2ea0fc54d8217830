import { paths } from "@common/routes";
import { renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { advance, fakeClockWithToken } from "@/testing/clock";
import { mockFetch } from "@/testing/network";
import { SIGN_IN_STATE_KEY } from "../sign-in-state";
import {
  type AuthCallbackOptions,
  type ExchangeAnswer,
  useAuthCallback,
} from "./use-auth-callback";

// Real wasm AuthCallbackMachine; the identity SDK's exchange is injected and fetch (the network
// boundary) is mocked for the API calls.
describe("useAuthCallback", () => {
  fakeClockWithToken("tok");

  // The state the login stored in this tab, and the callback URL's query carrying it back.
  const STATE = "q8Xv2mJ0c9Qn4sW7bY1tZg";
  const S = `state=${STATE}`;

  function render(
    search: string,
    exchange: AuthCallbackOptions["exchange"],
    onLocalhost = false,
    stored: string | null = STATE,
  ) {
    const navigate = vi.fn();
    const takeState = vi.fn(() => stored);
    const hook = renderHook(() =>
      useAuthCallback({ search, exchange, navigate, onLocalhost, takeState }),
    );
    return { ...hook, navigate, takeState };
  }

  it("exchanges, sets name and profile when none is stored, then goes to /home", async () => {
    const calls = mockFetch({
      "/api/auth/current-user": { status: 200, body: { data: { id: 1, name: null } } },
      "/api/auth/update-profile": { status: 200, body: { data: { id: 1, name: "Ada" } } },
    });
    const user = {
      name: "Ada",
      displayName: "ada",
      username: "ada#1",
      picture: "https://a/p.png",
      loginIds: ["discord-1"],
    };
    const exchange = vi.fn(async (): Promise<ExchangeAnswer> => ({ ok: true, data: { user } }));
    const { result, navigate } = render(`?code=xyz&${S}`, exchange);
    expect(result.current.phase).toBe("exchanging");
    await advance(0);
    expect(exchange).toHaveBeenCalledWith("xyz");
    expect(calls.map((c) => c.path)).toEqual([
      "/api/auth/current-user",
      "/api/auth/update-profile",
    ]);
    expect(calls[1]?.body).toEqual({
      name: "Ada",
      profile: {
        oauthProvider: "discord",
        oauthData: { username: "ada#1", displayName: "ada", avatar: "https://a/p.png" },
      },
    });
    expect(calls[1]?.authorization).toBe("Bearer tok");
    // The machine names the home page; the hook maps it to the catalogue's dashboard path.
    expect(navigate).toHaveBeenCalledWith(paths.dashboard, { replace: true });
    expect(result.current.phase).toBe("done");
  });

  it("sets only the profile when a name is stored", async () => {
    const calls = mockFetch({
      "/api/auth/current-user": { status: 200, body: { data: { name: "Countess" } } },
      "/api/auth/update-profile": { status: 200, body: { data: {} } },
    });
    render(`?code=xyz&${S}`, async () => ({ ok: true, data: { user: { name: "Ada" } } }));
    await advance(0);
    expect(calls[1]?.body).not.toHaveProperty("name");
  });

  it("without a code says so and redirects to /?error=no_code after exactly 3 s", async () => {
    const exchange = vi.fn();
    const { result, navigate } = render("", exchange);
    await advance(0);
    expect(result.current.message).toBe("No authorization code received from OAuth provider");
    expect(exchange).not.toHaveBeenCalled();
    await advance(2_999);
    expect(navigate).not.toHaveBeenCalled();
    await advance(1);
    expect(navigate).toHaveBeenCalledWith("/?error=no_code", { replace: true });
  });

  it.each([
    [
      { errorCode: "E061301" },
      "OAuth Provider Configuration Required - Discord may not be enabled in the identity provider",
    ],
    [
      { message: "user must exist" },
      "New user registration may be required. Please contact support.",
    ],
  ])("maps %o to the catalogue message with help", async (error, message) => {
    const { result, navigate } = render(`?code=c&${S}`, async () => ({ ok: false, error }));
    await advance(0);
    expect(result.current).toMatchObject({ phase: "failed", message, showHelp: true });
    await advance(10_000);
    expect(navigate).not.toHaveBeenCalled();
  });

  it("other errors redirect to /?error=auth_failed after 3 s, but show help on localhost", async () => {
    const failing = async (): Promise<ExchangeAnswer> => ({
      ok: false,
      error: { errorCode: "E1", message: "bad code" },
    });
    const remote = render(`?code=c&${S}`, failing);
    await advance(0);
    expect(remote.result.current.message).toBe("Authentication failed: bad code");
    await advance(3_000);
    expect(remote.navigate).toHaveBeenCalledWith("/?error=auth_failed", { replace: true });

    const local = render(`?code=c&${S}`, failing, true);
    await advance(0);
    expect(local.result.current.showHelp).toBe(true);
    await advance(5_000);
    expect(local.navigate).not.toHaveBeenCalled();
  });

  it("a thrown exchange shows 'OAuth exchange failed: {message}'", async () => {
    const { result } = render(`?code=c&${S}`, async () => {
      throw new Error("socket hang up");
    });
    await advance(0);
    expect(result.current.message).toBe("OAuth exchange failed: socket hang up");
  });

  it("a failing API step is 'Authentication error: {message}' with /?error=callback_error", async () => {
    mockFetch({ "/api/auth/current-user": { status: 401, body: { error: "Invalid session" } } });
    const { result, navigate } = render(`?code=c&${S}`, async () => ({ ok: true }));
    await advance(0);
    expect(result.current.message).toBe("Authentication error: Invalid session");
    await advance(3_000);
    expect(navigate).toHaveBeenCalledWith("/?error=callback_error", { replace: true });
  });

  it.each([
    ["no state in the URL", "?code=c", STATE],
    ["another browser's state", "?code=c&state=another", STATE],
    ["no stored state (already used, or started elsewhere)", `?code=c&${S}`, null],
  ])(
    "%s: the code is not exchanged, the page says why and goes to /?error=callback_error",
    async (_, search, stored) => {
      const exchange = vi.fn();
      const { result, navigate, takeState } = render(search, exchange, true, stored);
      await advance(0);
      expect(exchange).not.toHaveBeenCalled();
      expect(takeState).toHaveBeenCalledTimes(1);
      expect(result.current).toMatchObject({
        phase: "failed",
        message:
          "This sign-in link was started in another browser or has already been used. Please sign in again.",
        showHelp: false,
      });
      await advance(3_000);
      expect(navigate).toHaveBeenCalledWith("/?error=callback_error", { replace: true });
    },
  );

  it("takes the state from this tab's sessionStorage, once: a second visit is refused", async () => {
    mockFetch({
      "/api/auth/current-user": { status: 200, body: { data: { name: "Ada" } } },
      "/api/auth/update-profile": { status: 200, body: { data: {} } },
    });
    sessionStorage.setItem(SIGN_IN_STATE_KEY, STATE);
    const exchange = vi.fn(async (): Promise<ExchangeAnswer> => ({ ok: true }));
    const options = { search: `?code=c&${S}`, exchange, navigate: vi.fn(), onLocalhost: true };
    const first = renderHook(() => useAuthCallback(options));
    await advance(0);
    expect(exchange).toHaveBeenCalledWith("c");
    expect(sessionStorage.getItem(SIGN_IN_STATE_KEY)).toBeNull();
    first.unmount();

    const again = renderHook(() => useAuthCallback(options));
    await advance(0);
    expect(exchange).toHaveBeenCalledTimes(1);
    expect(again.result.current.message).toMatch(
      /^This sign-in link was started in another browser/,
    );
  });

  it("times out after exactly 10 s without an outcome", async () => {
    const { result } = render(`?code=c&${S}`, () => new Promise<ExchangeAnswer>(() => {}));
    await advance(9_999);
    expect(result.current.phase).toBe("exchanging");
    await advance(1);
    expect(result.current.message).toBe("Authentication timeout - please try again");
  });
});
