import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mockFetch } from "@/testing/network";
import type { DeploymentConfig } from "../../lib/wasm/core";
import { LandingPage } from "./landing-page";

// What the landing says for each deployment type and flags (spec 2.2 and 3), through the real wasm
// Deployment machine; only fetch (the health checks' network boundary) is mocked. Which of these the
// server serves is proven in server/tests/api/prerendered/variants.rs, and the browser suite sees the
// default and an ethereal deployment on real servers (e2e/deployment-types.spec.ts).

interface Expected {
  config: DeploymentConfig;
  type: string;
  title: string;
  apotheosis: "On" | "Off";
  wisdom: boolean;
  ethereal: boolean;
}

const cases: Record<string, Expected> = {
  telekinesis: {
    config: { deploymentType: "telekinesis" },
    type: "telekinesis",
    title: "Telekinesis",
    apotheosis: "On",
    wisdom: true,
    ethereal: false,
  },
  "metagenesis with the apotheosis flag off": {
    config: { deploymentType: "metagenesis", flagsJson: '{"apotheosis":false}' },
    type: "metagenesis",
    title: "Metagenesis",
    apotheosis: "Off",
    wisdom: false,
    ethereal: false,
  },
  "an ethereal type": {
    config: { deploymentType: "ethereal" },
    type: "ethereal",
    title: "Ethereal",
    apotheosis: "Off",
    wisdom: false,
    ethereal: true,
  },
  "apotheosis with the ethereal flag": {
    config: { deploymentType: "apotheosis", flagsJson: '{"ethereal":true}' },
    type: "ethereal",
    title: "Ethereal",
    apotheosis: "Off",
    wisdom: false,
    ethereal: true,
  },
};

const fact = (name: string) => {
  const row = screen.getByText(name, { selector: "dt" }).parentElement as HTMLElement;
  return within(row).getByRole("definition").textContent;
};

describe("LandingPage", () => {
  beforeEach(() => {
    mockFetch({ "/health": { status: 200 }, "/db-health": { status: 200 } });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  for (const [name, expected] of Object.entries(cases)) {
    it(`${name}: type, flags, text and cards agree`, () => {
      render(
        <MemoryRouter>
          <LandingPage config={expected.config} />
        </MemoryRouter>,
      );
      expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(expected.title);
      expect(screen.getByText(`${expected.type} deployment`)).toBeTruthy();
      expect(fact("Type")).toBe(expected.type);
      expect(fact("Apotheosis")).toBe(expected.apotheosis);
      expect(screen.queryAllByRole("button", { name: "Wisdom" })).toHaveLength(
        expected.wisdom ? 1 : 0,
      );
      const database = screen.getByTestId("card-database");
      const telekinesis = screen.getByTestId("card-telekinesis");
      if (expected.ethereal) {
        expect(screen.getByText(/no server or database to look after/)).toBeTruthy();
        expect(database.getAttribute("aria-disabled")).toBe("true");
        expect(within(telekinesis).queryByRole("link")).toBeNull();
        expect(screen.getByTestId("card-server").textContent).toContain("Not applicable");
      } else {
        expect(database.getAttribute("aria-disabled")).toBeNull();
        expect(within(telekinesis).getByRole("link", { name: "Open Telekinesis" })).toBeTruthy();
      }
    });
  }
});
