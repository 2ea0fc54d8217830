import type { OperatorView as OperatorInfo } from "@common/http-types";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { mockFetch } from "@/testing/network";
import { callApiSignedIn, renderAtHome, stubSession } from "@/testing/session";
import { OperatorView } from "./operator-view";

// The operator view against a faked network: every choice a form offers, and its words, are the
// server's answer's; a refusal is shown in the server's words and focus moves to it; a post tells
// the page (onPosted) and focus moves to the result.

/** The server's answer, with words that differ from the values (so a test sees whose words show). */
const info: OperatorInfo = {
  operator: "ops-1",
  components: [
    ["api", "API"],
    ["db", "Database"],
  ],
  check_incidents: [],
  open_notices: [{ id: "n1", kind: "incident", title: "Slow sign-ins" }],
  limits: { title_chars: 120, body_chars: 4000, updates_per_notice: 25, open_notices: 30 },
  incident_statuses: [
    ["investigating", "Looking into it"],
    ["identified", "Found"],
    ["monitoring", "Watching"],
    ["resolved", "Fixed"],
  ],
  window_statuses: [
    ["scheduled", "Planned"],
    ["in_progress", "Under way"],
    ["completed", "Done"],
  ],
  impacts: [
    ["minor", "Small"],
    ["major", "Large"],
  ],
  component_statuses: [
    ["operational", "Fine"],
    ["major_outage", "Down hard"],
  ],
  posted: [
    {
      id: "n1",
      kind: "incident",
      title: "Slow sign-ins",
      updates: [
        {
          seq: 2,
          status: "identified",
          body: "Found **it**.",
          created_at: "2026-11-28T10:05:00.000Z",
          author: "ops-1",
          kept: null,
        },
        {
          seq: 1,
          status: "investigating",
          body: "Looking.",
          created_at: "2026-11-28T10:00:00.000Z",
          author: "ops-1",
          kept: "An incident keeps its first update; edit it instead.",
        },
      ],
    },
  ],
  component_settings: [
    ["api", null],
    ["db", "major_outage"],
  ],
};

function options(select: HTMLElement): string[] {
  return Array.from((select as HTMLSelectElement).options).map((o) => o.textContent ?? "");
}

async function openAction(name: string) {
  fireEvent.click(await screen.findByRole("heading", { name }));
  return screen.findByRole("form", { name });
}

callApiSignedIn();

describe("OperatorView", () => {
  it("offers the server's components, statuses, impacts and component statuses in its words", async () => {
    mockFetch({ "/api/status/operator": { status: 200, body: info } });
    renderAtHome(<OperatorView onPosted={() => {}} />, stubSession({ userId: "U1" }));
    const form = await openAction("Open an incident");
    expect(options(within(form).getByLabelText("Impact"))).toEqual(["Small", "Large"]);
    expect(options(within(form).getByLabelText("Status"))).toEqual([
      "Looking into it",
      "Found",
      "Watching",
    ]);
    expect(options(within(form).getByLabelText("Component status"))).toEqual([
      "As the checks measure",
      "Fine",
      "Down hard",
    ]);
    expect(within(form).queryByLabelText("Telekinesis queue")).toBeNull();
    const update = await openAction("Post an update (1 open)");
    expect(options(within(update).getByLabelText("Status"))).toEqual([
      "Looking into it",
      "Found",
      "Watching",
      "Fixed",
    ]);
  });

  it("shows a refusal in the server's words and moves focus to it", async () => {
    const refusal = "The end must be after the start, and at most 7 days after it.";
    mockFetch({
      "/api/status/operator": { status: 200, body: info },
      "/api/status/maintenances": { status: 400, body: { code: "invalid_field", error: refusal } },
    });
    const posted = vi.fn();
    renderAtHome(<OperatorView onPosted={posted} />, stubSession({ userId: "U1" }));
    const form = await openAction("Schedule maintenance");
    fireEvent.submit(form);
    const outcome = await screen.findByText(refusal);
    await waitFor(() => expect(document.activeElement).toBe(outcome));
    expect(posted).not.toHaveBeenCalled();
    // Just after the action's disclosure, not inside it: Chromium's next Tab from inside an open
    // <details> goes back to its first field (the keyboard e2e spec shows the order).
    expect(outcome.closest("details")).toBeNull();
    expect(form.closest("details")?.nextElementSibling?.contains(outcome)).toBe(true);
  });

  it("names the new incident, moves focus to it and tells the page", async () => {
    const calls = mockFetch({
      "/api/status/operator": { status: 200, body: info },
      "/api/status/incidents": { status: 201, body: {} },
    });
    const posted = vi.fn();
    renderAtHome(<OperatorView onPosted={posted} />, stubSession({ userId: "U1" }));
    const form = await openAction("Open an incident");
    fireEvent.change(within(form).getByLabelText("Title"), { target: { value: "Database down" } });
    fireEvent.change(within(form).getByLabelText("Component status"), {
      target: { value: "major_outage" },
    });
    fireEvent.submit(form);
    const outcome = await screen.findByText("Incident opened: Database down.");
    await waitFor(() => expect(document.activeElement).toBe(outcome));
    expect(posted).toHaveBeenCalled();
    expect(calls.find((c) => c.path === "/api/status/incidents")?.body).toMatchObject({
      title: "Database down",
      component_status: "major_outage",
    });
  });

  it("edits a posted update's text, keyboard first, and lands focus on the result", async () => {
    const path = "/api/status/incidents/n1/updates/2";
    const calls = mockFetch({
      "/api/status/operator": { status: 200, body: info },
      [path]: { status: 200, body: {} },
    });
    const posted = vi.fn();
    renderAtHome(<OperatorView onPosted={posted} />, stubSession({ userId: "U1" }));
    fireEvent.click(await screen.findByRole("heading", { name: "Edit or delete a posted update" }));
    fireEvent.click(await screen.findByRole("button", { name: "Edit update 2 of Slow sign-ins" }));
    const text = await screen.findByLabelText("Text of update 2 of Slow sign-ins (Markdown)");
    await waitFor(() => expect(document.activeElement).toBe(text));
    expect((text as HTMLTextAreaElement).value).toBe("Found **it**.");
    expect(screen.getByText(/^Update 2 · Found ·/)).toBeTruthy();
    fireEvent.change(text, { target: { value: "Found it: a full disk." } });
    fireEvent.submit(screen.getByRole("form", { name: "Edit update 2 of Slow sign-ins" }));
    const outcome = await screen.findByText("Saved: update 2 of Slow sign-ins.");
    await waitFor(() => expect(document.activeElement).toBe(outcome));
    expect(posted).toHaveBeenCalled();
    expect(calls.find((c) => c.path === path)).toMatchObject({
      method: "PATCH",
      body: { body: "Found it: a full disk." },
    });
  });

  it("deletes only after asking, shows a refusal in the server's words, and offers no Delete for a kept update", async () => {
    const path = "/api/status/incidents/n1/updates/2";
    const refusal =
      "The update was deleted meanwhile, or corrected at the same moment: look again.";
    const calls = mockFetch({
      "/api/status/operator": { status: 200, body: info },
      [path]: { status: 400, body: { code: "invalid_field", error: refusal } },
    });
    renderAtHome(<OperatorView onPosted={() => {}} />, stubSession({ userId: "U1" }));
    fireEvent.click(await screen.findByRole("heading", { name: "Edit or delete a posted update" }));
    const remove = await screen.findByRole("button", { name: "Delete update 2 of Slow sign-ins" });
    expect(screen.queryByRole("button", { name: "Delete update 1 of Slow sign-ins" })).toBeNull();
    expect(screen.getByText("An incident keeps its first update; edit it instead.")).toBeTruthy();
    fireEvent.click(remove);
    const question = await screen.findByText(/^Delete update 2 of Slow sign-ins\?/);
    await waitFor(() => expect(document.activeElement).toBe(question));
    expect(calls.some((c) => c.path === path)).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Keep it" }));
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole("button", { name: "Delete update 2 of Slow sign-ins" }),
      ),
    );
    fireEvent.click(screen.getByRole("button", { name: "Delete update 2 of Slow sign-ins" }));
    fireEvent.click(await screen.findByRole("button", { name: "Delete it" }));
    const outcome = await screen.findByText(refusal);
    await waitFor(() => expect(document.activeElement).toBe(outcome));
    expect(calls.find((c) => c.path === path)?.method).toBe("DELETE");
  });

  it("sets a component's status without an incident, in the server's words", async () => {
    const calls = mockFetch({
      "/api/status/operator": { status: 200, body: info },
      "/api/status/components/api": { status: 200, body: {} },
    });
    renderAtHome(<OperatorView onPosted={() => {}} />, stubSession({ userId: "U1" }));
    const form = await openAction("Set a component's status");
    expect(within(form).getByText("Database: Down hard")).toBeTruthy();
    expect(within(form).getByText("API: As the checks measure")).toBeTruthy();
    expect(options(within(form).getByLabelText("Status"))).toEqual([
      "As the checks measure",
      "Fine",
      "Down hard",
    ]);
    fireEvent.change(within(form).getByLabelText("Status"), { target: { value: "operational" } });
    fireEvent.submit(form);
    const outcome = await screen.findByText("API: Fine.");
    await waitFor(() => expect(document.activeElement).toBe(outcome));
    expect(calls.find((c) => c.path === "/api/status/components/api")).toMatchObject({
      method: "PATCH",
      body: { status: "operational" },
    });
  });
});
