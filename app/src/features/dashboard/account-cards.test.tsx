import type { AccountSession } from "@common/http-types";
import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mockFetch } from "@/testing/network";
import { callApiSignedIn, renderAtHome, stubSession } from "@/testing/session";
import { setRevokedHandler } from "../../lib/api-client";
import type { Session } from "../../lib/session/session-context";
import { loadCore } from "../../lib/wasm/load-core";
import { AccountDataCard } from "./account-data-card";
import { formatWhen, relativeTo } from "./relative-time";
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

/** A faked server listing `sessions`; each sign-out action (`revoke`, `revoke-others`) answers
 * that `revoked` were signed out and leaves `left` listed. */
function sessionsServer(
  sessions: AccountSession[],
  signOuts: Partial<Record<"revoke" | "revoke-others", [left: AccountSession[], revoked: number]>>,
) {
  let listed = sessions;
  const routes: Parameters<typeof mockFetch>[0] = {
    "/api/auth/sessions": () => ({ status: 200, body: { data: { sessions: listed } } }),
  };
  for (const [action, [left, revoked]] of Object.entries(signOuts)) {
    routes[`/api/auth/sessions/${action}`] = () => {
      listed = left;
      return { status: 200, body: { data: { revoked } } };
    };
  }
  return mockFetch(routes);
}

// Every answer's message is read by the wasm core: loaded once before the cases, so its first load
// (seconds on a busy machine) is not counted against the first case's wait for the list.
beforeAll(() => loadCore());
callApiSignedIn();
afterEach(() => setRevokedHandler(undefined));

describe("SessionsCard", () => {
  it("lists each session with its label, this device, and signs another out", async () => {
    const calls = sessionsServer([laptop, phone], { revoke: [[laptop], 1] });
    const changed = vi.fn();
    renderWithSession(<SessionsCard signedIn onChanged={changed} />);
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
    fireEvent.click(screen.getByRole("button", { name: /^Sign out Safari on iPhone/ }));
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
    sessionsServer([laptop, script], {
      revoke: [[laptop], 1],
      "revoke-others": [[laptop], 2],
    });
    renderWithSession(<SessionsCard signedIn onChanged={() => {}} />);
    const items = await screen.findAllByTestId("session");
    expect(within(items[1] as HTMLElement).getByText("Can sign back in on its own")).toBeTruthy();
    expect(within(items[0] as HTMLElement).queryByText("Can sign back in on its own")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Sign out of all other sessions" }));
    const dialog = screen.getByRole("dialog", { name: "Sign out of all other sessions?" });
    expect(dialog.textContent).toMatch(/1 of them can sign back in on its own/);
    fireEvent.click(within(dialog).getByRole("button", { name: "Sign out other sessions" }));
    const said = await screen.findByText(/other sessions: their sign-ins/);
    expect(said.textContent).not.toMatch(/signed out/);
    expect(said.textContent).toMatch(/2 other sessions: their sign-ins are refused, but 1 of them/);
  });

  it("reads the list again when the session signed out had ended already (404)", async () => {
    let listed = [laptop, phone];
    mockFetch({
      "/api/auth/sessions": () => ({ status: 200, body: { data: { sessions: listed } } }),
      "/api/auth/sessions/revoke": () => {
        // Another tab or device ended it first.
        listed = [laptop];
        return {
          status: 404,
          body: {
            code: "session_not_found",
            error: "None of your sessions has this id; it may have ended already.",
          },
        };
      },
    });
    const changed = vi.fn();
    renderWithSession(<SessionsCard signedIn onChanged={changed} />);
    await screen.findAllByTestId("session");
    fireEvent.click(screen.getByRole("button", { name: /^Sign out Safari on iPhone/ }));
    await screen.findByText("None of your sessions has this id; it may have ended already.");
    await vi.waitFor(() => expect(screen.getAllByTestId("session")).toHaveLength(1));
    expect(screen.queryByRole("button", { name: /^Sign out Safari on iPhone/ })).toBeNull();
    expect(changed).toHaveBeenCalled();
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
    renderWithSession(<SessionsCard signedIn onChanged={() => {}} />);
    await screen.findByRole("alert");
    expect(revoked).toHaveBeenCalledTimes(1);
  });
});

describe("SessionsCard with two sessions of one browser and system", () => {
  const twin = {
    ...laptop,
    id: "c".repeat(64),
    label: "Chrome on Linux",
    createdAt: "2026-01-05T10:20:30Z",
    current: false,
  } satisfies AccountSession;
  const other = { ...twin, id: "d".repeat(64), createdAt: "2026-01-05T10:20:41Z" };
  const mine = { ...twin, id: "e".repeat(64), createdAt: "2026-01-04T09:00:00Z", current: true };

  it("lists this device first and tells the others apart by their sign-in times", async () => {
    // The server lists the most recently active first: this device is not first there.
    mockFetch({
      "/api/auth/sessions": { status: 200, body: { data: { sessions: [twin, mine, other] } } },
    });
    renderWithSession(<SessionsCard signedIn onChanged={() => {}} />);
    const items = await screen.findAllByTestId("session");
    expect(items.map((item) => item.dataset.current)).toEqual(["true", "false", "false"]);
    // Every exact time through the page's one formatter, to the second.
    const signedIn = items.map((item) => item.querySelector("dd time")?.textContent);
    expect(signedIn).toEqual([mine, twin, other].map((s) => formatWhen(s.createdAt)));
    expect(new Set(signedIn).size).toBe(3);
    const buttons = screen.getAllByRole("button", { name: /^Sign out Chrome on Linux/ });
    expect(buttons.map((button) => button.getAttribute("aria-label"))).toEqual([
      `Sign out Chrome on Linux, signed in ${formatWhen(twin.createdAt)}`,
      `Sign out Chrome on Linux, signed in ${formatWhen(other.createdAt)}`,
    ]);
    const lastActive = items[0]?.querySelector("time.relative-time");
    expect(lastActive?.getAttribute("data-exact")).toBe(formatWhen(mine.lastActiveAt));
  });

  it("asks before signing out all others; Cancel keeps them, and focus comes back", async () => {
    const calls = sessionsServer([mine, twin, other], { "revoke-others": [[mine], 2] });
    const changed = vi.fn();
    renderWithSession(<SessionsCard signedIn onChanged={changed} />);
    await screen.findAllByTestId("session");
    const opener = screen.getByRole("button", { name: "Sign out of all other sessions" });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole("dialog", { name: "Sign out of all other sessions?" });
    expect(dialog.textContent).toContain("This signs out 2 other sessions:");
    expect(dialog.textContent).toContain(
      `Chrome on Linux, signed in ${formatWhen(twin.createdAt)}`,
    );
    expect(dialog.textContent).toContain("This device stays signed in.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(calls.filter((call) => call.path.endsWith("/revoke-others"))).toHaveLength(0);

    fireEvent.click(opener);
    fireEvent.click(screen.getByRole("button", { name: "Sign out other sessions" }));
    await screen.findByText("2 other sessions signed out.");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(calls.filter((call) => call.path.endsWith("/revoke-others"))).toHaveLength(1);
    expect(document.activeElement?.textContent).toBe("2 other sessions signed out.");
    expect(changed).toHaveBeenCalled();
  });
});

describe("AccountDataCard", () => {
  it("deletes the account only after the dialog's confirmation, then signs out here", async () => {
    const calls = mockFetch({
      "/api/auth/delete-account": { status: 200, body: { data: { deleted: true } } },
    });
    const deleteAccount = vi.fn(async (remove: () => Promise<unknown>) => {
      await remove();
    });
    const router = renderWithSession(<AccountDataCard signedIn />, { deleteAccount });
    fireEvent.click(screen.getByRole("button", { name: "Delete my mg-web account" }));
    const dialog = screen.getByRole("dialog", { name: "Delete your mg-web account?" });
    expect(dialog.textContent).toMatch(/identity provider.*separate/);
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(calls).toHaveLength(0);

    fireEvent.click(screen.getByRole("button", { name: "Delete my mg-web account" }));
    fireEvent.click(screen.getByRole("button", { name: "Delete my account" }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(deleteAccount).toHaveBeenCalledTimes(1);
    expect(calls[0]).toMatchObject({ path: "/api/auth/delete-account", body: { confirm: true } });
  });

  it("says why a download failed", async () => {
    mockFetch({
      "/api/auth/export": {
        status: 429,
        body: { code: "rate_limited", error: "Too many requests." },
      },
    });
    renderWithSession(<AccountDataCard signedIn />);
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
