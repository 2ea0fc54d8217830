import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigNotice } from "./config-notice";

afterEach(cleanup);

describe("ConfigNotice", () => {
  it("says sanctified mode has no authentication and lists the three steps", () => {
    render(<ConfigNotice />);
    expect(
      screen.getByRole("heading", { level: 1, name: "Authentication Configuration Required" }),
    ).toBeTruthy();
    expect(
      screen.getByText(/Sanctified mode is enabled, but authentication is not configured/),
    ).toBeTruthy();
    const steps = screen.getAllByRole("listitem").map((item) => item.textContent ?? "");
    expect(steps).toHaveLength(3);
    expect(steps[0]).toMatch(/identity project ID in the deployment environment/);
    expect(steps[1]).toMatch(/chat-platform \(Discord\) OAuth .* identity provider's console/);
    expect(steps[2]).toMatch(/Redeploy/);
  });
});
