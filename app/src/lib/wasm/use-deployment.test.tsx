import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { useDeployment } from "./use-deployment";

// Real wasm Deployment; no I/O.
describe("useDeployment", () => {
  it("builds the info and landing text from the config", async () => {
    const { result } = renderHook(() =>
      useDeployment({
        id: "dep-9",
        deploymentType: "metagenesis",
        flagsJson: '{"sanctified":true}',
      }),
    );
    await act(async () => {});
    expect(result.current).toMatchObject({
      id: "dep-9",
      type: "metagenesis",
      status: "active",
      flags: { apotheosis: true, sanctified: true, ethereal: false },
      landing: { title: "Metagenesis" },
    });
  });

  it("logs 'Failed to parse VITE_DEPLOYMENT_FLAGS' and uses the defaults", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const { result } = renderHook(() => useDeployment({ flagsJson: "{nope" }));
    await act(async () => {});
    expect(error).toHaveBeenCalledWith("Failed to parse VITE_DEPLOYMENT_FLAGS");
    expect(result.current?.flags).toEqual({ apotheosis: true, sanctified: false, ethereal: false });
  });

  it("has the info in its first render, before any effect (what the build prerenders)", () => {
    const first: unknown[] = [];
    renderHook(() => {
      first.push(useDeployment({ deploymentType: "telekinesis" }));
    });
    expect(first[0]).toMatchObject({ type: "telekinesis", landing: { title: "Telekinesis" } });
  });
});
