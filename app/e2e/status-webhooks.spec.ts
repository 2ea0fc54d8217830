import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { axeViolations, lookAtWidthsAndThemes } from "./checks";
import { openAction, outcomeOf, STATUS_OPERATOR, tabTo } from "./operators";
import { requireEmulator, signIn } from "./sign-in";

// The webhooks card of the operator view on /apotheosis (docs/status-operators.md, "Webhooks"): an
// operator adds a webhook pointing at a receiver this spec runs on 127.0.0.1 (start-server.sh allows
// loopback webhooks), sees its signing secret once, opens an incident, and the receiver gets a
// delivery signed with that secret while the delivery log shows it delivered; then deletes the
// webhook after confirming. The card is accessible and looks right at both widths in both themes.

type Received = { headers: IncomingHttpHeaders; body: string };

/** A receiver on 127.0.0.1 (a free port) recording every request; answers 200. */
async function startReceiver(): Promise<{ url: string; got: Received[]; close: () => void }> {
  const got: Received[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      got.push({ headers: request.headers, body });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, got, close: () => server.close() };
}

test.beforeAll(async ({ request }) => {
  await requireEmulator(request);
});

test("an operator adds a webhook, sees its secret once and its delivery in the log", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const receiver = await startReceiver();
  const tag = Date.now().toString(36);
  const name = `E2E receiver ${tag}`;
  await signIn(page, STATUS_OPERATOR);
  await page.goto("/apotheosis");
  const card = page.getByRole("region", { name: "Webhooks" });
  await expect(card).toBeVisible();

  const add = await openAction(card, "Add a webhook");
  await add.getByLabel("URL").fill(receiver.url);
  await add.getByLabel("Format").selectOption("json");
  await add.getByLabel("Name (optional)").fill(name);
  await add.getByRole("button", { name: "Add webhook" }).click();
  const shown = card.getByTestId("webhook-secret");
  await expect(shown).toBeVisible();
  // Focus lands on the outcome line, as after every operator form, and Tab goes on to the copy.
  await expect(shown.getByRole("status").first()).toBeFocused();
  await expect(shown.getByRole("status").first()).toHaveText(
    `Webhook added: ${name}. Its signing secret is below, shown this once.`,
  );
  await tabTo(page, "Copy secret");
  const secret = (await shown.locator("code.webhooks__secret-value").textContent()) ?? "";
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  await expect(card.getByRole("listitem").filter({ hasText: name })).toBeVisible();
  expect(await axeViolations(page, ".webhooks")).toEqual([]);
  await lookAtWidthsAndThemes(page, [[card, "status-webhooks-secret"]]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toHaveCount(0);
  // Shown once: a fresh page does not hold it (the API tests check the list never does).
  await page.reload();
  await expect(card).toBeVisible();
  expect(await page.content()).not.toContain(secret);

  // An incident opened in the operator view reaches the receiver, signed.
  const open = await openAction(page.getByTestId("operator-view"), "Open an incident");
  await open.getByLabel("Title").fill(`Webhook check ${tag}`);
  await open.getByLabel("Database").check();
  await open.getByLabel("What people see (Markdown)").fill("Checking the webhooks.");
  await open.getByRole("button", { name: "Open incident" }).click();
  await expect(outcomeOf(open)).toContainText("Incident opened: ");
  await expect
    .poll(() => receiver.got.some((r) => r.body.includes(`Webhook check ${tag}`)), {
      timeout: 20_000,
    })
    .toBe(true);
  const delivery = receiver.got.find((r) => r.body.includes(`Webhook check ${tag}`));
  expect(delivery?.headers["x-mg-event"]).toBe("incident.opened");
  const timestamp = String(delivery?.headers["x-mg-timestamp"]);
  const expected = createHmac("sha256", Buffer.from(secret, "hex"))
    .update(`${timestamp}.${delivery?.body}`)
    .digest("hex");
  expect(delivery?.headers["x-mg-signature"]).toBe(`sha256=${expected}`);

  // The delivery log shows it delivered.
  const log = card.getByTestId("webhook-deliveries");
  await expect
    .poll(
      async () => {
        await card.getByRole("button", { name: "Refresh" }).click();
        return (await log.textContent()) ?? "";
      },
      { timeout: 20_000 },
    )
    .toMatch(/incident\.opened.*Delivered/);
  await expect(log.getByRole("row").filter({ hasText: name }).first()).toContainText("HTTP 200");
  expect(await axeViolations(page, ".webhooks")).toEqual([]);
  await lookAtWidthsAndThemes(page, [[card, "status-webhooks-log"]]);

  // Deleting asks first.
  const item = card.getByRole("listitem").filter({ hasText: name });
  await item.getByRole("button", { name: `Delete ${name}…` }).click();
  await item.getByRole("button", { name: `Delete ${name}`, exact: true }).click();
  await expect(card.getByRole("listitem").filter({ hasText: name })).toHaveCount(0);
  receiver.close();
});
