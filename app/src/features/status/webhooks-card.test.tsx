import type { DeliveryLog, WebhookList } from "@common/http-types";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mockFetch } from "@/testing/network";
import { callApiSignedIn, renderAtHome, stubSession } from "@/testing/session";
import { WebhooksCard } from "./webhooks-card";

// The webhooks card against a faked network: the formats, their words and the lengths allowed are
// the server's answer's, and a refusal is shown in the server's words.

const list: WebhookList = {
  webhooks: [
    {
      id: "w1",
      name: "On-call",
      url: "https://hooks.example.com/mg",
      format: "slack",
      created_at: "2026-11-27T10:00:00.000Z",
      created_by: "ops-1",
    },
  ],
  max_webhooks: 20,
  max_url_chars: 1234,
  max_name_chars: 56,
  formats: [
    ["json", "Whole event (JSON)"],
    ["slack", "Slack message"],
  ],
};
const log: DeliveryLog = { deliveries: [], kept_days: 7 };

callApiSignedIn();

/** The card with `list` and an empty log, its webhooks listed and its "Add a webhook" form opened. */
async function openAddForm(): Promise<HTMLElement> {
  mockFetch({
    "/api/status/webhooks": { status: 200, body: list },
    "/api/status/webhooks/deliveries": { status: 200, body: log },
  });
  renderAtHome(<WebhooksCard />, stubSession({ userId: "U1" }));
  await screen.findByText("Slack message");
  fireEvent.click(screen.getByRole("heading", { name: "Add a webhook" }));
  return screen.findByRole("form", { name: "Add a webhook" });
}

describe("WebhooksCard", () => {
  it("offers the server's formats and limits, and lists webhooks in the server's words", async () => {
    const form = await openAddForm();
    const format = within(form).getByLabelText("Format") as HTMLSelectElement;
    expect(Array.from(format.options).map((o) => o.textContent)).toEqual([
      "Whole event (JSON)",
      "Slack message",
    ]);
    expect(within(form).getByLabelText("URL").getAttribute("maxlength")).toBe("1234");
    expect(within(form).getByLabelText("Name (optional)").getAttribute("maxlength")).toBe("56");
  });

  it("shows a refusal in the server's words", async () => {
    const refusal = "This address is private: webhooks may only reach public addresses.";
    const form = await openAddForm();
    mockFetch({
      "/api/status/webhooks": { status: 400, body: { code: "invalid_field", error: refusal } },
    });
    fireEvent.submit(form);
    const line = await screen.findByText(refusal);
    await waitFor(() => expect(document.activeElement).toBe(line), { timeout: 2000 });
  });

  it("moves focus to the outcome line once a webhook is added, as every operator form does", async () => {
    const form = await openAddForm();
    const added = { webhook: { ...list.webhooks[0], name: "Pager" }, secret: "ab".repeat(32) };
    let posted = false;
    mockFetch({
      // The POST first, then the list asked again.
      "/api/status/webhooks": () => {
        if (posted) return { status: 200, body: list };
        posted = true;
        return { status: 201, body: added };
      },
      "/api/status/webhooks/deliveries": { status: 200, body: log },
    });
    fireEvent.submit(form);
    const line = await screen.findByText(
      "Webhook added: Pager. Its signing secret is below, shown this once.",
    );
    await waitFor(() => expect(document.activeElement).toBe(line), { timeout: 2000 });
    expect(document.activeElement).not.toBe(document.body);
  });
});
