import type { DatabaseName } from "@common/http-types";
import { cleanup, render, screen, within } from "@testing-library/react";
import type { ComponentProps } from "react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { StatusCardList } from "./status-cards";

// Ethereal is a build-time deployment type, so the browser suite cannot switch to it; the cards'
// ethereal rendering is checked here with the snapshot useHealth gives on such a deployment.
// `server` is what the page has of the server's answer (the stated statuses and the 24 h uptimes).
function renderCards(
  ethereal: boolean,
  db: "unknown" | "healthy" | "unhealthy" | "n/a",
  database?: DatabaseName,
  server: Pick<ComponentProps<typeof StatusCardList>, "stated" | "uptime"> = {},
) {
  render(
    <MemoryRouter>
      <StatusCardList
        ethereal={ethereal}
        health={{ api: ethereal ? "n/a" : "healthy", db, queue: "unknown", database }}
        {...server}
      />
    </MemoryRouter>,
  );
}

describe("StatusCardList", () => {
  afterEach(cleanup);

  it("shows Database and Telekinesis disabled on an ethereal deployment", () => {
    renderCards(true, "n/a");
    const database = screen.getByTestId("card-database");
    const telekinesis = screen.getByTestId("card-telekinesis");
    expect(database.getAttribute("aria-disabled")).toBe("true");
    expect(within(database).getByText("Disabled")).toBeTruthy();
    expect(telekinesis.getAttribute("aria-disabled")).toBe("true");
    expect(within(telekinesis).queryByRole("link")).toBeNull();
    expect(within(screen.getByTestId("card-server")).getByText("Not applicable")).toBeTruthy();
  });

  it("links Telekinesis and reads the database value on other deployments", () => {
    renderCards(false, "unhealthy");
    const telekinesis = screen.getByTestId("card-telekinesis");
    expect(
      within(telekinesis).getByRole("link", { name: "Open Telekinesis" }).getAttribute("href"),
    ).toBe("/telekinesis");
    expect(within(screen.getByTestId("card-database")).getByText("Unhealthy")).toBeTruthy();
  });

  it("names the database /db-health reports, and no engine before it answers", () => {
    renderCards(false, "healthy", "sqlite");
    expect(screen.getByTestId("card-database").textContent).toContain("SQLite behind /db-health.");
    cleanup();
    renderCards(false, "healthy", "postgres");
    expect(screen.getByTestId("card-database").textContent).toContain("PostgreSQL behind");
    cleanup();
    renderCards(false, "unknown");
    expect(screen.getByTestId("card-database").textContent).toContain("The database behind");
  });

  it("reads anything but healthy or unhealthy as 'Checking' on the database card", () => {
    renderCards(false, "unknown");
    expect(within(screen.getByTestId("card-database")).getByText("Checking")).toBeTruthy();
  });

  it("states each component's status as the server combines it, a declared outage over a healthy check", () => {
    renderCards(false, "healthy", undefined, {
      stated: {
        api: { status: "operational", words: "Operational", note: "" },
        db: {
          status: "major_outage",
          words: "Major outage",
          note: "Declared by the operators",
        },
        queue: {
          status: "under_maintenance",
          words: "Under maintenance",
          note: "A maintenance window is in progress",
        },
      },
    });
    const database = screen.getByTestId("card-database");
    expect(within(database).getByText("Healthy")).toBeTruthy();
    expect(within(database).getByTestId("stated-database").textContent).toBe(
      "Major outageDeclared by the operators",
    );
    expect(screen.getByTestId("stated-server").textContent).toBe("Operational");
    expect(screen.getByTestId("stated-telekinesis").textContent).toBe(
      "Under maintenanceA maintenance window is in progress",
    );
    expect(within(screen.getByTestId("card-frontend")).queryByTestId("stated-frontend")).toBeNull();
  });

  it("states nothing before the server answers, and nothing on a disabled card", () => {
    renderCards(false, "healthy");
    expect(screen.queryByTestId("stated-database")).toBeNull();
    cleanup();
    renderCards(true, "n/a", undefined, {
      stated: {
        db: {
          status: "major_outage",
          words: "Major outage",
          note: "Declared by the operators",
        },
      },
    });
    expect(screen.queryByTestId("stated-database")).toBeNull();
  });

  it("shows the server's 24 h uptime under the state, and an empty line without a figure", () => {
    renderCards(false, "healthy", undefined, { uptime: { api: 99.996, db: null } });
    expect(screen.getByTestId("uptime-server").textContent).toBe("99.99% uptime, 24 h");
    expect(screen.getByTestId("uptime-database").textContent).toBe("");
    expect(screen.getByTestId("uptime-telekinesis").textContent).toBe("");
  });
});
