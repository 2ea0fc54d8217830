import type { AccountSession, CurrentUser } from "@common/http-types";
import { act, fireEvent, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { mockFetch } from "@/testing/network";
import { callApiSignedIn, renderAtHome, stubSession } from "@/testing/session";
import { type Session, SessionContext } from "../../lib/session/session-context";
import { DashboardPage } from "./dashboard-page";

// The network (fetch) is the boundary: the session is a stub, the wasm name-edit machine is real.
const user = {
  userId: "U2abc",
  email: "ada@example.com",
  name: "Ada from Discord",
  loginIds: ["ada@example.com"],
  OAuth: { discord: true },
};

const session = (overrides: Partial<Session> = {}) => stubSession(user, overrides);

// The server's answer, typed as the server writes it (common/http-types.ts).
const apiUser = {
  id: "7",
  name: "Ada",
  email: "ada@example.com",
  created_at: "2026-01-02T03:04:05Z",
  updated_at: null,
  activeSessions: 2,
  profile: null,
} satisfies CurrentUser;

const laptop = {
  id: "a".repeat(64),
  label: "Firefox on Linux",
  createdAt: "2026-01-02T03:04:05Z",
  lastActiveAt: new Date(Date.now() - 5 * 60_000).toISOString(),
  expiresAt: "2026-02-01T03:04:05Z",
  current: true,
  boundToSignIn: true,
} satisfies AccountSession;
const phone = { ...laptop, id: "b".repeat(64), label: "Safari on iPhone", current: false };

/** The sessions list every dashboard reads beside the user. */
const sessionsRoute = {
  "/api/auth/sessions": { status: 200, body: { data: { sessions: [laptop, phone] } } },
};

/** The dashboard, loaded against the user's answer, its sessions and `routes`; the calls it made. */
async function loadDashboard(routes: Parameters<typeof mockFetch>[0] = {}, value = session()) {
  const calls = mockFetch({
    ...sessionsRoute,
    "/api/auth/current-user": { status: 200, body: { data: apiUser } },
    ...routes,
  });
  const router = renderAtHome(<DashboardPage />, value);
  await act(async () => {});
  return { calls, router };
}

/** Opens the name editor, types `value` and presses `key`. */
function typeName(value: string, key: "Enter" | "Escape") {
  fireEvent.click(screen.getByRole("button", { name: "Edit" }));
  const input = screen.getByLabelText("Display name");
  fireEvent.change(input, { target: { value } });
  fireEvent.keyDown(input, { key });
}

callApiSignedIn();

describe("DashboardPage while the session is read, and for an anonymous visitor", () => {
  it("is the page's frame: headings and placeholders, nothing personal, no call made", async () => {
    const calls = mockFetch({});
    renderAtHome(<DashboardPage />, session({ state: { status: "loading" } }));
    await act(async () => {});
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Dashboard");
    for (const title of ["Profile", "API user data", "Signed-in devices", "Your data"]) {
      expect(screen.getByRole("heading", { name: title })).toBeTruthy();
    }
    expect(screen.getByRole("main").getAttribute("aria-busy")).toBe("true");
    expect(screen.getByText("Loading your session...")).toBeTruthy();
    expect(screen.queryByTestId("user-email")).toBeNull();
    expect(screen.queryByText(/ada@example\.com|U2abc/)).toBeNull();
    expect(screen.getByRole("button", { name: "Download my data" })).toHaveProperty(
      "disabled",
      true,
    );
    expect(calls).toEqual([]);
  });

  it("fills the frame in once signed in, keeping its nodes", async () => {
    const calls = mockFetch({
      ...sessionsRoute,
      "/api/auth/current-user": { status: 200, body: { data: apiUser } },
    });
    let signIn = () => {};
    function Reading() {
      const [value, setValue] = useState(session({ state: { status: "loading" } }));
      signIn = () => setValue(session());
      return (
        <SessionContext.Provider value={value}>
          <DashboardPage />
        </SessionContext.Provider>
      );
    }
    renderAtHome(<Reading />, session());
    const frame = [screen.getByRole("main"), screen.getByRole("heading", { name: "Profile" })];
    await act(async () => signIn());
    await act(async () => {});
    expect(screen.getByTestId("user-email").textContent).toBe("ada@example.com");
    expect(screen.getByTestId("db-id").textContent).toBe("7");
    expect(frame.map((node) => node.isConnected)).toEqual([true, true]);
    expect(screen.getByRole("main").getAttribute("aria-busy")).toBe("false");
    expect(calls.map((call) => call.path).sort()).toEqual([
      "/api/auth/current-user",
      "/api/auth/sessions",
    ]);
  });

  it("sends an anonymous visitor to /", () => {
    mockFetch({});
    const router = renderAtHome(<DashboardPage />, session({ state: { status: "anonymous" } }));
    expect(router.state.location.pathname).toBe("/");
    expect(screen.getByText("Landing")).toBeTruthy();
  });
});

describe("DashboardPage", () => {
  it("shows the identity user and the API's user data", async () => {
    const { calls } = await loadDashboard();
    expect(screen.getByTestId("user-email").textContent).toBe("ada@example.com");
    expect(screen.getByTestId("login-provider").textContent).toBe("Discord");
    expect(screen.getByTestId("auth-status").textContent).toBe("Authenticated");
    expect(screen.getByText("U2abc")).toBeTruthy();
    expect(screen.getByTestId("display-name").textContent).toBe("Ada");
    expect(screen.getByTestId("db-id").textContent).toBe("7");
    expect(screen.getByTestId("updated-at").textContent).toBe("Never updated");
    expect(screen.getByTestId("active-sessions").textContent).toBe("2");
    expect(screen.getByRole("link", { name: "Docs" }).getAttribute("href")).toBe("/mg/overview");
    expect(screen.getByRole("link", { name: "Back to Home" }).getAttribute("href")).toBe("/");
    expect(calls.find((call) => call.path === "/api/auth/current-user")).toMatchObject({
      path: "/api/auth/current-user",
      method: "POST",
      authorization: "Bearer session-jwt",
    });
  });

  it("saves the name on Enter and cancels on Escape", async () => {
    const { calls } = await loadDashboard({
      "/api/auth/update-profile": { status: 200, body: { data: { ...apiUser, name: "Grace" } } },
    });
    typeName("Someone else", "Escape");
    expect(screen.getByTestId("display-name").textContent).toBe("Ada");

    typeName("  Grace ", "Enter");
    await act(async () => {});
    const update = calls.find((call) => call.path === "/api/auth/update-profile");
    expect(update).toMatchObject({ body: { name: "Grace" }, authorization: "Bearer session-jwt" });
    expect(screen.getByTestId("display-name").textContent).toBe("Grace");
    expect(screen.getAllByRole("status").some((el) => /updated/i.test(el.textContent ?? ""))).toBe(
      true,
    );
  });

  it("refuses an empty name with 'Name cannot be empty' and sends nothing", async () => {
    const { calls } = await loadDashboard();
    typeName("   ", "Enter");
    await act(async () => {});
    expect(screen.getByRole("alert").textContent).toBe("Name cannot be empty");
    expect(calls.some((call) => call.path === "/api/auth/update-profile")).toBe(false);
  });

  it("logs out and goes home", async () => {
    const value = session();
    const { router } = await loadDashboard({}, value);
    fireEvent.click(screen.getByRole("button", { name: "Log out" }));
    await act(async () => {});
    expect(value.logout).toHaveBeenCalled();
    expect(router.state.location.pathname).toBe("/");
  });

  it("shows the API's message when the user data cannot be read", async () => {
    await loadDashboard({ "/api/auth/current-user": "network" });
    expect(screen.getByRole("alert").textContent).toMatch(
      "Network error - please check your connection",
    );
  });
});
