import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { OAuthStartAnswer } from "../../lib/wasm/use-login";
import { LoginModal } from "./login-modal";

// Real wasm login machine; the identity SDK's OAuth start is injected (no network).
function Harness({ startOAuth }: { startOAuth: () => Promise<OAuthStartAnswer> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Log in
      </button>
      {open && (
        <LoginModal onClose={() => setOpen(false)} startOAuth={startOAuth} redirect={vi.fn()} />
      )}
    </>
  );
}

async function openModal(
  startOAuth: () => Promise<OAuthStartAnswer> = () => new Promise(() => {}),
) {
  render(<Harness startOAuth={startOAuth} />);
  const opener = screen.getByRole("button", { name: "Log in" });
  opener.focus();
  fireEvent.click(opener);
  await act(async () => {});
  return { opener, dialog: screen.getByRole("dialog", { name: "Choose Login Method" }) };
}

afterEach(cleanup);

describe("LoginModal", () => {
  it("offers the six providers by name", async () => {
    await openModal();
    const names = ["Google", "GitHub", "Microsoft", "Facebook", "Discord", "LinkedIn"];
    for (const name of names)
      expect(screen.getByRole("button", { name: `Continue with ${name}` })).toBeTruthy();
  });

  it("moves focus in, traps Tab at both ends, and returns focus to the opener on Escape", async () => {
    const { opener, dialog } = await openModal();
    const close = screen.getByRole("button", { name: "Close" });
    const last = screen.getByRole("button", { name: "Continue with LinkedIn" });
    expect(document.activeElement).toBe(close);

    fireEvent.keyDown(close, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(last);
    fireEvent.keyDown(last, { key: "Tab" });
    expect(document.activeElement).toBe(close);

    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("marks the chosen provider loading and disables the others", async () => {
    await openModal();
    fireEvent.click(screen.getByRole("button", { name: "Continue with Discord" }));
    await act(async () => {});
    expect(screen.getByRole("button", { name: "Connecting to Discord..." })).toHaveProperty(
      "disabled",
      false,
    );
    expect(screen.getByRole("button", { name: "Continue with Google" })).toHaveProperty(
      "disabled",
      true,
    );
  });

  it("shows the machine's message when the start fails", async () => {
    await openModal(async () => ({ ok: false }));
    fireEvent.click(screen.getByRole("button", { name: "Continue with GitHub" }));
    await act(async () => {});
    expect(screen.getByRole("alert").textContent).toBe(
      "Failed to connect with GitHub. Please try again.",
    );
  });

  it("warns when running on localhost", async () => {
    // jsdom's page is http://localhost:3000/.
    await openModal();
    expect(screen.getByRole("note").textContent).toMatch(/Running on localhost/);
  });
});
