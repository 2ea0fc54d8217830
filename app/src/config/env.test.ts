import { describe, expect, it } from "vitest";
import { HOSTED_IDENTITY_BASE_URL, resolveIdentityConfig } from "./env";
import { readRuntimeConfig } from "./runtime-config";

function page(json: string | null) {
  return {
    getElementById: (id: string) =>
      json !== null && id === "mg-runtime-config" ? ({ textContent: json } as HTMLElement) : null,
  };
}

describe("readRuntimeConfig", () => {
  it("reads the server's injected values", () => {
    const config = readRuntimeConfig(
      page(
        '{"sanctified": true, "identityProjectId": "P2abc", "identityBaseUrl": "", "deploymentId": 42, "deploymentFlags": "{\\"ethereal\\":true}", "deploymentType": "ethereal"}',
      ),
    );
    expect(config).toEqual({
      sanctified: true,
      identityProjectId: "P2abc",
      identityBaseUrl: "",
      deploymentId: "42",
      deploymentFlags: '{"ethereal":true}',
      deploymentType: "ethereal",
    });
  });

  it("reads nothing without the element, and nothing from broken JSON", () => {
    expect(readRuntimeConfig(page(null))).toEqual({});
    const error = console.error;
    console.error = () => {};
    try {
      expect(readRuntimeConfig(page("{not json"))).toEqual({});
    } finally {
      console.error = error;
    }
  });

  it("ignores fields of the wrong type", () => {
    expect(readRuntimeConfig(page('{"sanctified": "yes", "identityProjectId": 5}'))).toEqual({
      sanctified: undefined,
      identityProjectId: "5",
      identityBaseUrl: undefined,
      deploymentId: undefined,
      deploymentFlags: undefined,
      deploymentType: undefined,
    });
  });
});

describe("resolveIdentityConfig", () => {
  const origin = "http://127.0.0.1:4178";

  it("prefers runtime values over the build's, and reads an empty base URL as this origin", () => {
    expect(
      resolveIdentityConfig(
        { sanctified: true, identityProjectId: "Pruntime", identityBaseUrl: "" },
        { VITE_SANCTIFIED: "false", VITE_IDENTITY_PROJECT_ID: "Pbuild" },
        origin,
      ),
    ).toEqual({ sanctified: true, projectId: "Pruntime", baseUrl: origin });
  });

  it("uses the build's values in a static build without the server", () => {
    expect(
      resolveIdentityConfig(
        {},
        {
          VITE_SANCTIFIED: "true",
          VITE_IDENTITY_PROJECT_ID: "Pbuild",
          VITE_IDENTITY_BASE_URL: "https://id.example/",
        },
        origin,
      ),
    ).toEqual({ sanctified: true, projectId: "Pbuild", baseUrl: "https://id.example" });
  });

  it("is sanctified with the hosted provider when nothing is set, but has no project", () => {
    expect(resolveIdentityConfig({}, {}, origin)).toEqual({
      sanctified: true,
      projectId: undefined,
      baseUrl: HOSTED_IDENTITY_BASE_URL,
    });
  });

  it("turns sanctified mode off when the runtime or the build says so", () => {
    expect(resolveIdentityConfig({ sanctified: false }, {}, origin).sanctified).toBe(false);
    expect(resolveIdentityConfig({}, { VITE_SANCTIFIED: "0" }, origin).sanctified).toBe(false);
  });
});
