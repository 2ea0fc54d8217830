import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LoginModal } from "../features/auth/login-modal";
import { SetupGuideModal } from "../features/auth/setup-guide-modal";
import { type Session, SessionContext, type SessionState } from "../lib/session/session-context";
import { type AuthDialogs, SanctifiedNav } from "./sanctified-nav";
import { ThemeProvider } from "./theme-provider";

// The auth feature's real dialogs, handed in as the app does (src/app/router.tsx).
const dialogs: AuthDialogs = { LoginModal, SetupGuideModal };

function renderNav(state: SessionState, logout = vi.fn(async () => {}), completing = false) {
  const value = {
    state,
    enabled: true,
    ensureIdentity: async () => null,
    reload: async () => state,
    getToken: async () => undefined,
    logout,
    completing,
  } satisfies Session;
  const router = createMemoryRouter(
    [
      { path: "/", element: <SanctifiedNav dialogs={dialogs} /> },
      { path: "*", element: <SanctifiedNav dialogs={dialogs} /> },
    ],
    { initialEntries: ["/telekinesis"] },
  );
  render(
    <ThemeProvider>
      <SessionContext.Provider value={value}>
        <RouterProvider router={router} />
      </SessionContext.Provider>
    </ThemeProvider>,
  );
  return router;
}

afterEach(cleanup);

describe("SanctifiedNav", () => {
  it("offers no Log in or Sign up while the callback completes a sign-in", async () => {
    renderNav({ status: "anonymous" }, undefined, true);
    await act(async () => {});
    expect(screen.queryByRole("button", { name: "Log in" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Sign up" })).toBeNull();
    expect(screen.getByRole("button", { name: "Projects" })).toBeTruthy();
  });

  it("opens the mobile menu's panel with its button, and a navigation folds it again", async () => {
    const router = renderNav({ status: "anonymous" });
    await act(async () => {});
    const menu = screen.getByRole("button", { name: "Menu" });
    const panel = screen.getByRole("navigation", { name: "Main" });
    expect(menu.getAttribute("aria-controls")).toBe(panel.id);
    expect(menu.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(menu);
    expect(menu.getAttribute("aria-expanded")).toBe("true");
    expect(panel.classList.contains("sanctified-nav__panel--open")).toBe(true);
    await act(() => router.navigate("/apotheosis"));
    expect(menu.getAttribute("aria-expanded")).toBe("false");
    expect(panel.classList.contains("sanctified-nav__panel--open")).toBe(false);
  });

  it("opens the project menu from the keyboard and closes it with Escape", async () => {
    renderNav({ status: "anonymous" });
    await act(async () => {});
    const projects = screen.getByRole("button", { name: "Projects" });
    expect(projects.getAttribute("aria-expanded")).toBe("false");
    fireEvent.keyDown(projects, { key: "ArrowDown" });
    await act(async () => {});
    expect(projects.getAttribute("aria-expanded")).toBe("true");
    const items = screen.getAllByRole("menuitem");
    expect(items.map((item) => [item.textContent, item.getAttribute("href")])).toEqual([
      ["Apotheosis", "/apotheosis"],
      ["Telekinesis", "/telekinesis"],
      ["Metagenesis", "/mg/overview"],
    ]);
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(items[0] as HTMLElement, { key: "Escape" });
    expect(projects.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(projects);
  });

  it("offers Log in, Sign up and the setup guide to anonymous visitors", async () => {
    renderNav({ status: "anonymous" });
    await act(async () => {});
    fireEvent.click(screen.getByRole("button", { name: "Log in" }));
    // The modal is its own chunk: on a loaded machine it takes more than the default second.
    expect(
      await screen.findByRole("dialog", { name: "Choose Login Method" }, { timeout: 5000 }),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.getByRole("button", { name: "Sign up" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Setup guide" }));
    expect(await screen.findByRole("dialog", { name: "OAuth Setup Guide" })).toBeTruthy();
  });

  it("gives a signed-in user a menu with Dashboard and Log out", async () => {
    const logout = vi.fn(async () => {});
    const router = renderNav(
      { status: "signed-in", user: { userId: "U1", name: "Ada", email: "a@x" } },
      logout,
    );
    await act(async () => {});
    expect(screen.queryByRole("button", { name: "Log in" })).toBeNull();
    const account = screen.getByRole("button", { name: "Account: Ada" });
    fireEvent.click(account);
    expect(screen.getByRole("menuitem", { name: "Dashboard" }).getAttribute("href")).toBe("/home");
    fireEvent.click(screen.getByRole("menuitem", { name: "Log out" }));
    await act(async () => {});
    expect(logout).toHaveBeenCalled();
    expect(router.state.location.pathname).toBe("/");
  });
});
