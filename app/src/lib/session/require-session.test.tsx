import { cleanup, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { RequireSession } from "./require-session";
import { type Session, SessionContext, type SessionState } from "./session-context";

function renderAt(state: SessionState) {
  const value = { state } as Session;
  const router = createMemoryRouter(
    [
      {
        path: "/home",
        element: (
          <RequireSession>
            <p>Dashboard</p>
          </RequireSession>
        ),
      },
      { path: "/", element: <p>Landing</p> },
    ],
    { initialEntries: ["/home"] },
  );
  render(
    <SessionContext.Provider value={value}>
      <RouterProvider router={router} />
    </SessionContext.Provider>,
  );
  return router;
}

afterEach(cleanup);

describe("RequireSession", () => {
  it("shows the loading screen while the session loads", () => {
    renderAt({ status: "loading" });
    expect(screen.getByRole("status").textContent).toMatch(/Loading your session/);
  });

  it("sends anonymous visitors to /", () => {
    const router = renderAt({ status: "anonymous" });
    expect(router.state.location.pathname).toBe("/");
    expect(screen.getByText("Landing")).toBeTruthy();
  });

  it("shows the page to a signed-in user", () => {
    renderAt({ status: "signed-in", user: { userId: "U1" } });
    expect(screen.getByText("Dashboard")).toBeTruthy();
  });
});
