import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { HOSTED_OAUTH_CALLBACK, SetupGuideModal } from "./setup-guide-modal";

afterEach(cleanup);

describe("SetupGuideModal", () => {
  it("has the four tabs, moves with the arrow keys, and shows the provider's callback address", () => {
    render(<SetupGuideModal onClose={() => {}} />);
    const tabs = screen.getAllByRole("tab").map((tab) => tab.textContent);
    expect(tabs).toEqual(["Overview", "Identity-provider Setup", "Chat-platform Setup", "Testing"]);
    const overview = screen.getByRole("tab", { name: "Overview" });
    fireEvent.keyDown(overview, { key: "ArrowRight" });
    const identity = screen.getByRole("tab", { name: "Identity-provider Setup" });
    expect(identity.getAttribute("aria-selected")).toBe("true");
    expect(document.activeElement).toBe(identity);
    expect(screen.getByRole("tabpanel").textContent).toContain(HOSTED_OAUTH_CALLBACK);
    fireEvent.click(screen.getByRole("tab", { name: "Chat-platform Setup" }));
    expect(screen.getByRole("tabpanel").textContent).toMatch(/Discord Developer Portal/);
    fireEvent.click(screen.getByRole("tab", { name: "Testing" }));
    expect(screen.getByRole("tabpanel").textContent).toMatch(/local identity emulator/);
  });
});
