// Test helper: a page behind a session, as the app routes it (the page at /home, the landing page
// at /), with the session a stub and the router in memory.
import { cleanup, render } from "@testing-library/react";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, vi } from "vitest";
import { setTokenProvider } from "../lib/api-client";
import type { IdentityProfile } from "../lib/identity";
import { type Session, SessionContext } from "../lib/session/session-context";

/** In every test of the calling file, the API client sends the token "session-jwt" (as
 * [`stubSession`]'s does); after each, the page, the token and any stubbed global (the faked fetch)
 * are removed. */
export function callApiSignedIn() {
  beforeEach(() => setTokenProvider(() => "session-jwt"));
  afterEach(() => {
    cleanup();
    setTokenProvider(undefined);
    vi.unstubAllGlobals();
  });
}

/** A signed-in session whose token is "session-jwt"; `overrides` replace any part of it. */
export function stubSession(user: IdentityProfile, overrides: Partial<Session> = {}): Session {
  return {
    state: { status: "signed-in", user },
    enabled: true,
    ensureIdentity: async () => null,
    reload: async () => ({ status: "signed-in", user }),
    getToken: async () => "session-jwt",
    logout: vi.fn(async () => {}),
    ...overrides,
  };
}

/** Renders `element` at /home inside `session`; the router tells where the page sent the person. */
export function renderAtHome(element: ReactNode, session: Session) {
  const router = createMemoryRouter(
    [
      { path: "/home", element },
      { path: "/", element: <p>Landing</p> },
    ],
    { initialEntries: ["/home"] },
  );
  render(
    <SessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </SessionContext.Provider>,
  );
  return router;
}
