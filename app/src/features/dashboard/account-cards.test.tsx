import type { AccountSession } from "@common/http-types";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mockFetch } from "@/testing/network";
import { renderAtHome, stubSession } from "@/testing/session";
import { setRevokedHandler, setTokenProvider } from "../../lib/api-client";
import type { Session } from "../../lib/session/session-context";
import { AccountDataCard, DELETED_NOTICE } from "./account-data-card";
import { relativeTo } from "./relative-time";
import { SessionsCard } from "./sessions-card";

// The sessions list and the account's data actions, against a faked network (fetch).
const now = Date.now();
const laptop = {
  id: "a".repeat(64),
  label: "Firefox on Linux",
  createdAt: "2026-01-02T03:04:05Z",
  lastActiveAt: new Date(now - 5 * 60_000).toISOString(),
  expiresAt: "2026-02-01T03:04:05Z",
  current: true,
  boundToSignIn: true,
} satisfies AccountSession;
const phone = { ...laptop, id: "b".repeat(64), label: "Safari on iPhone", current: false };

function renderWithSession(element: React.ReactNode, session: Partial<Session> = {}) {
  return renderAtHome(element, stubSession({ userId: "U1" }, session));
}

beforeEach(() => setTokenProvider(() => "session-jwt"));
afterEach(() => {
  cleanup();
  setTokenProvider(undefined);
  setRevokedHandler(undefined);
  vi.unstubAllGlobals();
});

describe("SessionsCard", () => {
  it("lists each session with its label, this device, and signs another out", async () => {
    let sessions: AccountSession[] = [laptop, phone];
    const calls = mockFetch({
      "/api/auth/sessions": () => ({ status: 200, body: { data: { sessions } } }),
      "/api/auth/sessions/revoke": () => {
        sessions = [laptop];
        return { status: 200, body: { data: { revoked: 1 } } };
      },
    });
    const changed = vi.fn();
    renderWithSession(<SessionsCard onChanged={changed} />);
    const items = await screen.findAllByTestId("session");
    expect(items).toHaveLength(2);
    expect(within(items[0] as HTMLElement).getByText("This device")).toBeTruthy();
    expect(within(items[1] as HTMLElement).queryByText("This device")).toBeNull();
    const time = (items[0] as HTMLElement).querySelector("time.relative-time");
    expect(time?.getAttribute("dateTime")).toBe(laptop.lastActiveAt);
    expect(time?.getAttribute("tabindex")).toBe("0");
    expect(time?.textContent).toMatch(/5 minutes ago/);
    // Only the other session can be signed out from here.
    expect(document.querySelectorAll(".session__sign-out")).toHaveLength(1);
    fireEvent.click(screen.getByRole("button", { name: "Sign out Safari on iPhone" }));
    await screen.findByText("Safari on iPhone signed out.");
    expect(calls.find((call) => call.path === "/api/auth/sessions/revoke")).toMatchObject({
      method: "POST",
      body: { id: phone.id },
      authorization: "Bearer session-jwt",
    });
    await vi.waitFor(() => expect(screen.getAllByTestId("session")).toHaveLength(1));
    expect(screen.getByText("Safari on iPhone signed out.")).toBeTruthy();
    expect(document.activeElement?.textContent).toBe("Safari on iPhone signed out.");
    expect(changed).toHaveBeenCalled();
    expect(screen.queryByRole("button", { name: "Sign out of all other sessions" })).toBeNull();
  });

  it("does not call a session that can sign back in on its own signed out", async () => {
    const script = { ...phone, label: "curl", boundToSignIn: false };
    let sessions: AccountSession[] = [laptop, script];
    mockFetch({
      "/api/auth/sessions": () => ({ status: 200, body: { data: { sessions } } }),
      "/api/auth/sessions/revoke": () => {
        sessions = [laptop];
        return { status: 200, body: { data: { revoked: 1 } } };
      },
      "/api/auth/sessions/revoke-others": () => {
        sessions = [laptop];
        return { status: 200, body: { data: { revoked: 2 } } };
      },
    });
    renderWithSession(<SessionsCard onChanged={() => {}} />);
    const items = await screen.findAllByTestId("session");
    expect(within(items[1] as HTMLElement).getByText("Can sign back in on its own")).toBeTruthy();
    expect(within(items[0] as HTMLElement).queryByText("Can sign back in on its own")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Sign out of all other sessions" }));
    const said = await screen.findByText(/can sign back in on its own/);
    expect(said.textContent).not.toMatch(/signed out/);
    expect(said.textContent).toMatch(/2 other sessions: their sign-ins are refused, but 1 of them/);
  });

  it("hands a 401 session_revoked answer to the session's handler", async () => {
    const revoked = vi.fn();
    setRevokedHandler(revoked);
    mockFetch({
      "/api/auth/sessions": {
        status: 401,
        body: { code: "session_revoked", error: "This browser was signed out." },
      },
    });
    renderWithSession(<SessionsCard onChanged={() => {}} />);
    await screen.findByRole("alert");
    expect(revoked).toHaveBeenCalledTimes(1);
  });
});

describe("AccountDataCard", () => {
  it("deletes the account only after the dialog's confirmation, then signs out here", async () => {
    const calls = mockFetch({
      "/api/auth/delete-account": { status: 200, body: { data: { deleted: true } } },
    });
    const signOutHere = vi.fn(async () => {});
    const router = renderWithSession(<AccountDataCard />, { signOutHere });
    fireEvent.click(screen.getByRole("button", { name: "Delete my mg-web account" }));
    const dialog = screen.getByRole("dialog", { name: "Delete your mg-web account?" });
    expect(dialog.textContent).toMatch(/identity provider.*separate/);
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(calls).toHaveLength(0);

    fireEvent.click(screen.getByRole("button", { name: "Delete my mg-web account" }));
    fireEvent.click(screen.getByRole("button", { name: "Delete my account" }));
    await vi.waitFor(() => expect(signOutHere).toHaveBeenCalled());
    expect(calls[0]).toMatchObject({ path: "/api/auth/delete-account", body: { confirm: true } });
    expect(signOutHere).toHaveBeenCalledWith(DELETED_NOTICE);
    expect(router.state.location.pathname).toBe("/");
  });

  it("says why a download failed", async () => {
    mockFetch({
      "/api/auth/export": {
        status: 429,
        body: { code: "rate_limited", error: "Too many requests." },
      },
    });
    renderWithSession(<AccountDataCard />);
    fireEvent.click(screen.getByRole("button", { name: "Download my data" }));
    await screen.findByText(/Too many requests/);
    expect(screen.getByRole("status").textContent).toMatch(/Too many requests/);
  });
});

describe("relativeTo", () => {
  it("words a past moment in the largest whole unit", () => {
    const at = Date.parse("2026-01-10T12:00:00Z");
    expect(relativeTo("2026-01-10T11:59:30Z", at)).toBe("just now");
    expect(relativeTo("2026-01-10T11:55:00Z", at)).toBe("5 minutes ago");
    expect(relativeTo("2026-01-09T12:00:00Z", at)).toBe("yesterday");
    expect(relativeTo("not a date", at)).toBe("not a date");
  });
});
