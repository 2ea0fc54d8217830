import { act, cleanup, render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockFetch } from "@/testing/network";
import type { IdentityConfig } from "../../config/env";
import { requestRaw } from "../api-client";
import type { Identity, IdentityProfile, Restored } from "../identity";
import { type Session, useSession } from "./session-context";
import {
  ACCOUNT_DELETED_KEY,
  DELETED_NOTICE,
  ENDED_NOTICE,
  LOGGED_OUT_KEY,
  LOGGED_OUT_NOTICE,
  RATE_LIMITED_NOTICE,
  REVOKED_NOTICE,
  SessionProvider,
  SIGNED_OUT_KEY,
  UNREACHABLE_NOTICE,
} from "./session-provider";

// The identity SDK is the boundary here: a stand-in Identity replaces it.
const config: IdentityConfig = { sanctified: true, projectId: "Ptest", baseUrl: "http://idp" };

function fakeIdentity(user: IdentityProfile | null, overrides: Partial<Identity> = {}): Identity {
  return {
    startOAuth: vi.fn(),
    exchange: vi.fn(),
    getToken: () => "jwt",
    restore: vi.fn(
      async (): Promise<Restored> => (user ? { status: "signed-in", user } : { status: "none" }),
    ),
    logout: vi.fn(async () => ({ ok: true })),
    ...overrides,
  };
}

/** The session the provider handed out last, for calls a test makes as a page would. */
let handed: Session | undefined;

function Probe() {
  const session = useSession();
  handed = session;
  const { state } = session;
  return (
    <>
      <p data-testid="state">
        {state.status === "signed-in" ? `signed-in ${state.user.email}` : state.status}
      </p>
      <button type="button" onClick={() => void session.logout()}>
        Log out
      </button>
    </>
  );
}

/** The provider around the probe, its SDK loaded by `load`. */
function renderProvider(load: () => Promise<Identity>, providerConfig: IdentityConfig = config) {
  render(
    <SessionProvider config={providerConfig} load={load}>
      <Probe />
    </SessionProvider>,
  );
}

const shownState = () => screen.getByTestId("state").textContent;

/** The API's answer to a session signed out from another session. */
const revokedAnswer = {
  status: 401,
  body: { code: "session_revoked", error: "Signed out elsewhere." },
};

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

/** Another tab wrote `newValue` under `key` in local storage (null: removed it). */
const hear = (key: string | null, newValue: string | null) =>
  act(() => {
    window.dispatchEvent(new StorageEvent("storage", { key, newValue }));
  });

describe("SessionProvider", () => {
  it("restores a stored session through the SDK's refresh", async () => {
    localStorage.setItem("DSR", "refresh-jwt");
    const load = vi.fn(async () => fakeIdentity({ userId: "U1", email: "a@x" }));
    renderProvider(load);
    expect(shownState()).toBe("loading");
    await act(async () => {});
    expect(shownState()).toBe("signed-in a@x");
  });

  it.each([
    ["at once, without loading the SDK, when nothing is stored", config, null],
    ["when sign-in is off", { ...config, sanctified: false }, "refresh-jwt"],
  ])("is anonymous %s", async (_, providerConfig, stored) => {
    const load = vi.fn(async () => fakeIdentity(null));
    if (stored) localStorage.setItem("DSR", stored);
    renderProvider(load, providerConfig);
    await act(async () => {});
    expect(shownState()).toBe("anonymous");
    expect(load).not.toHaveBeenCalled();
  });

  // The first state after mount is a transition: a part of the page that suspends on it keeps what
  // it showed (an urgent update would show its fallback, and during hydration would make React
  // hydrate everything not yet hydrated in one blocking task).
  it.each([
    ["nothing is stored", null],
    ["the stored session does not restore", "refresh-jwt"],
  ])("sets its first state in a transition when %s", async (_, stored) => {
    if (stored) localStorage.setItem("DSR", stored);
    const never = new Promise<never>(() => {});
    function SuspendsOnAnonymous() {
      const { state } = useSession();
      if (state.status === "anonymous") throw never;
      return <p data-testid="shown">{state.status}</p>;
    }
    render(
      <SessionProvider config={config} load={async () => fakeIdentity(null)}>
        <Suspense fallback={<p data-testid="fallback">fallback</p>}>
          <SuspendsOnAnonymous />
        </Suspense>
      </SessionProvider>,
    );
    await act(async () => {});
    expect(screen.queryByTestId("fallback")).toBeNull();
    expect(screen.getByTestId("shown").textContent).toBe("loading");
  });

  // A 401 ends the sign-in; a 429 only refused too many requests (the SDK drops its tokens on both).
  it.each([
    [401, ENDED_NOTICE],
    [429, RATE_LIMITED_NOTICE],
  ])(
    "says why when the provider refuses the stored sign-in on load with %s",
    async (code, said) => {
      localStorage.setItem("DSR", "refresh-jwt");
      localStorage.setItem("mg-session-id", "0123456789abcdef0123456789abcdef");
      const refused = fakeIdentity(null, {
        restore: vi.fn(async () => {
          localStorage.removeItem("DSR");
          return { status: "refused", code } as const;
        }),
      });
      const told = vi.spyOn(Storage.prototype, "setItem");
      renderProvider(async () => refused);
      await act(async () => {});
      expect(shownState()).toBe("anonymous");
      expect(screen.getByRole("status").textContent).toBe(`${said}Dismiss`);
      expect(localStorage.getItem("mg-session-id")).toBeNull();
      // The other tabs, which heard the tokens go, are told why.
      expect(told).toHaveBeenCalledWith(SIGNED_OUT_KEY, said);
      told.mockRestore();
    },
  );

  it.each([
    ["answers 5xx or not at all", async () => ({ status: "unreachable" }) as const],
    [
      "throws",
      async () => {
        throw new Error("Failed to fetch");
      },
    ],
  ])(
    "says it could not reach the sign-in service when the refresh %s, and keeps the tokens",
    async (_, restore) => {
      localStorage.setItem("DSR", "refresh-jwt");
      localStorage.setItem("mg-session-id", "0123456789abcdef0123456789abcdef");
      vi.spyOn(console, "error").mockImplementation(() => {});
      const told = vi.spyOn(Storage.prototype, "setItem");
      renderProvider(async () => fakeIdentity(null, { restore: vi.fn(restore) }));
      await act(async () => {});
      expect(shownState()).toBe("anonymous");
      const notice = screen.getByRole("status");
      expect(notice.textContent).toContain(UNREACHABLE_NOTICE);
      expect(notice.textContent).not.toContain("signed out");
      // Focus is on the notice, for keyboard and screen-reader users.
      expect(document.activeElement).toBe(screen.getByTestId("signed-out-notice"));
      expect(localStorage.getItem("DSR")).toBe("refresh-jwt");
      expect(localStorage.getItem("mg-session-id")).not.toBeNull();
      expect(told).not.toHaveBeenCalledWith(SIGNED_OUT_KEY, expect.anything());
      told.mockRestore();
    },
  );

  it("logs a failed logout and still ends the session", async () => {
    localStorage.setItem("DSR", "refresh-jwt");
    const identity = fakeIdentity(
      { userId: "U1", email: "a@x" },
      { logout: async () => ({ ok: false, error: { errorCode: "E1" } }) },
    );
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    renderProvider(async () => identity);
    await act(async () => {});
    await act(async () => screen.getByRole("button", { name: "Log out" }).click());
    expect(shownState()).toBe("anonymous");
    expect(errors).toHaveBeenCalledWith("Logout failed", { errorCode: "E1" });
    // Nothing of the session is left for the next person at this computer.
    expect(localStorage.getItem("DSR")).toBeNull();
  });

  it("becomes anonymous when the SDK drops the session by itself", async () => {
    localStorage.setItem("DSR", "refresh-jwt");
    let ended: () => void = () => {};
    const identity = fakeIdentity(
      { userId: "U1", email: "a@x" },
      {
        onSessionEnded: (callback) => {
          ended = callback;
          return () => {};
        },
      },
    );
    renderProvider(async () => identity);
    await act(async () => {});
    expect(shownState()).toBe("signed-in a@x");
    act(() => ended());
    expect(shownState()).toBe("anonymous");
  });

  /** A tab signed in (a stored refresh token and session id) with the fake SDK. */
  async function signedIn() {
    localStorage.setItem("DSR", "refresh-jwt");
    localStorage.setItem("mg-session-id", "0123456789abcdef0123456789abcdef");
    const identity = fakeIdentity({ userId: "U1", email: "a@x" });
    renderProvider(async () => identity);
    await act(async () => {});
    expect(shownState()).toBe("signed-in a@x");
    return identity;
  }

  it("signs this browser out when the API says its session was signed out elsewhere", async () => {
    const identity = await signedIn();
    mockFetch({ "/api/auth/sessions": revokedAnswer });
    await act(async () => {
      await requestRaw("/api/auth/sessions", { method: "POST", auth: true });
    });
    expect(identity.logout).toHaveBeenCalled();
    expect(shownState()).toBe("anonymous");
    expect(localStorage.getItem("DSR")).toBeNull();
    expect(localStorage.getItem("mg-session-id")).toBeNull();
    expect(screen.getByRole("status").textContent).toContain(REVOKED_NOTICE);
  });

  describe("a tab of a browser signed out in another tab", () => {
    it("tells the other tabs when an answer signs it out", async () => {
      await signedIn();
      mockFetch({ "/api/auth/sessions": revokedAnswer });
      const told = vi.spyOn(Storage.prototype, "setItem");
      await act(async () => {
        await requestRaw("/api/auth/sessions", { method: "POST", auth: true });
      });
      expect(told).toHaveBeenCalledWith(SIGNED_OUT_KEY, REVOKED_NOTICE);
      expect(localStorage.getItem(SIGNED_OUT_KEY)).toBeNull();
      told.mockRestore();
    });

    it.each([REVOKED_NOTICE, ENDED_NOTICE, RATE_LIMITED_NOTICE])(
      "follows at once, with no call, saying what that tab said: %s",
      async (said) => {
        const identity = await signedIn();
        const calls = mockFetch({});
        hear(SIGNED_OUT_KEY, said);
        await act(async () => {});
        expect(shownState()).toBe("anonymous");
        expect(screen.getByRole("status").textContent).toBe(`${said}Dismiss`);
        expect(localStorage.getItem("mg-session-id")).toBeNull();
        expect(identity.logout).not.toHaveBeenCalled();
        expect(calls).toEqual([]);
      },
    );

    it("signs out when the stored refresh token goes, and takes the reason told just after", async () => {
      await signedIn();
      // Renewed, not gone: still signed in.
      localStorage.setItem("DSR", "renewed-jwt");
      hear("DSR", "renewed-jwt");
      expect(shownState()).toBe("signed-in a@x");
      localStorage.removeItem("DSR");
      hear("DSR", null);
      expect(shownState()).toBe("anonymous");
      expect(screen.getByRole("status").textContent).toContain(ENDED_NOTICE);
      hear(SIGNED_OUT_KEY, RATE_LIMITED_NOTICE);
      expect(screen.getByRole("status").textContent).toBe(`${RATE_LIMITED_NOTICE}Dismiss`);
    });
  });

  describe("deleting the account", () => {
    it("says the account was deleted, even when another request's 401 came first", async () => {
      const identity = await signedIn();
      mockFetch({ "/api/auth/sessions": revokedAnswer });
      const told = vi.spyOn(Storage.prototype, "setItem");
      await act(async () => {
        // The deletion committed, and a request in flight meanwhile was answered 401 before the
        // deletion's own answer arrived.
        await handed?.deleteAccount?.(() =>
          requestRaw("/api/auth/sessions", { method: "POST", auth: true }),
        );
      });
      expect(identity.logout).toHaveBeenCalledTimes(1);
      expect(shownState()).toBe("anonymous");
      expect(screen.getByRole("status").textContent).toContain(DELETED_NOTICE);
      // The other tabs were told.
      expect(told).toHaveBeenCalledWith(ACCOUNT_DELETED_KEY, expect.any(String));
      expect(localStorage.getItem(ACCOUNT_DELETED_KEY)).toBeNull();
      told.mockRestore();
    });

    it("the deleting tab says so when another tab clears the tokens meanwhile", async () => {
      await signedIn();
      await act(async () => {
        await handed?.deleteAccount?.(async () => {});
        // Another tab cleared the storage: its event comes after this tab ended, before a render.
        localStorage.removeItem("DSR");
        window.dispatchEvent(new StorageEvent("storage", { key: "DSR", newValue: null }));
      });
      expect(screen.getByRole("status").textContent).toContain(DELETED_NOTICE);
    });

    it("signs out every other tab of this browser saying the account was deleted", async () => {
      const identity = await signedIn();
      hear(ACCOUNT_DELETED_KEY, "1");
      await act(async () => {});
      expect(identity.logout).toHaveBeenCalled();
      expect(shownState()).toBe("anonymous");
      expect(screen.getByRole("status").textContent).toContain(DELETED_NOTICE);
    });

    it("after a failed deletion, a later sign-out elsewhere says so", async () => {
      await signedIn();
      await act(async () => {
        await expect(
          handed?.deleteAccount?.(async () => {
            throw new Error("Server error occurred");
          }),
        ).rejects.toThrow("Server error occurred");
      });
      expect(shownState()).toBe("signed-in a@x");
      mockFetch({ "/api/auth/sessions": revokedAnswer });
      await act(async () => {
        await requestRaw("/api/auth/sessions", { method: "POST", auth: true });
      });
      expect(screen.getByRole("status").textContent).toContain(REVOKED_NOTICE);
    });
  });

  describe("logging out in one tab of the browser", () => {
    it("tells the other tabs before the provider's logout clears the tokens they hear go", async () => {
      const identity = await signedIn();
      mockFetch({ "/api/auth/logout": { status: 200, body: {} } });
      const told = vi.spyOn(Storage.prototype, "setItem");
      await act(async () => {
        await handed?.logout();
      });
      expect(identity.logout).toHaveBeenCalledTimes(1);
      expect(told).toHaveBeenCalledWith(LOGGED_OUT_KEY, expect.any(String));
      const toldAt =
        told.mock.invocationCallOrder[told.mock.calls.findIndex(([key]) => key === LOGGED_OUT_KEY)];
      expect(toldAt).toBeLessThan(vi.mocked(identity.logout).mock.invocationCallOrder[0] ?? 0);
      expect(localStorage.getItem(LOGGED_OUT_KEY)).toBeNull();
      told.mockRestore();
    });

    it("signs the other tabs out saying it happened in this browser, with no call of their own", async () => {
      const identity = await signedIn();
      const calls = mockFetch({});
      hear(LOGGED_OUT_KEY, "1");
      await act(async () => {});
      expect(shownState()).toBe("anonymous");
      expect(screen.getByRole("status").textContent).toContain(LOGGED_OUT_NOTICE);
      expect(screen.getByRole("status").textContent).not.toContain("another device");
      expect(identity.logout).not.toHaveBeenCalled();
      expect(calls).toEqual([]);
    });
  });
});
