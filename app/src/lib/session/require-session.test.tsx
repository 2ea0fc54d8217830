import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { renderAtHome } from "@/testing/session";
import { RequireSession } from "./require-session";
import type { Session, SessionState } from "./session-context";

function renderAt(state: SessionState) {
  return renderAtHome(
    <RequireSession>
      <p>Dashboard</p>
    </RequireSession>,
    { state } as Session,
  );
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
