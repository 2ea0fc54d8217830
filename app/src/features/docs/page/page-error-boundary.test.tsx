import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PageErrorBoundary } from "./page-error-boundary";

afterEach(cleanup);

function Broken(): never {
  throw new Error("chunk failed to load");
}

describe("PageErrorBoundary", () => {
  it("says the page could not be loaded, and clears when another page is shown", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { rerender } = render(
      <PageErrorBoundary resetKey="flow">
        <Broken />
      </PageErrorBoundary>,
    );
    expect(screen.getByRole("alert").textContent).toContain("This page could not be loaded");
    rerender(
      <PageErrorBoundary resetKey="safety">
        <p>Safety page</p>
      </PageErrorBoundary>,
    );
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByText("Safety page")).toBeTruthy();
  });
});
