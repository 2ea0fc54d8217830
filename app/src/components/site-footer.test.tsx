import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { readRuntimeConfig } from "../config/runtime-config";
import { SiteFooter } from "./site-footer";

afterEach(() => {
  cleanup();
  document.getElementById("mg-runtime-config")?.remove();
});

function injectRuntimeConfig(json: string) {
  const script = document.createElement("script");
  script.type = "application/json";
  script.id = "mg-runtime-config";
  script.textContent = json;
  document.head.append(script);
}

describe("SiteFooter", () => {
  it("shows the local identity emulator marker when the server says the emulator runs on purpose", async () => {
    injectRuntimeConfig('{"sanctified":true,"identityBaseUrl":"","identityEmulator":true}');
    render(<SiteFooter />);
    expect(await screen.findByText("Local identity emulator")).toBeTruthy();
    expect(screen.getByText(/anyone can\s+sign in as any e-mail address/)).toBeTruthy();
  });

  it("links the graphics bench with a plain link (a document load, so the page is isolated)", () => {
    injectRuntimeConfig('{"sanctified":true,"identityBaseUrl":""}');
    render(<SiteFooter />);
    expect(screen.getByRole("link", { name: "Graphics bench" }).getAttribute("href")).toBe(
      "/bench",
    );
  });

  it("shows no marker otherwise", () => {
    injectRuntimeConfig('{"sanctified":true,"identityBaseUrl":""}');
    render(<SiteFooter />);
    expect(screen.queryByText("Local identity emulator")).toBeNull();
    expect(readRuntimeConfig().identityEmulator).toBeUndefined();
  });
});
