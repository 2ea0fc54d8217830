import { expect, type Locator, type Page, test } from "@playwright/test";
import { axeViolations, lookAtWidthsAndThemes } from "./checks";
import { newAccount, signInOverHttp } from "./emulator-http";
import {
  actionSummary,
  openAction,
  openActionFromKeyboard,
  operatorView,
  outcomeOf,
  tabTo,
  typeIncident,
} from "./operators";
import { requireEmulator } from "./sign-in";

// Running an outage from /apotheosis (docs/status-operators.md): an operator (the emulator gives the
// role to IDENTITY_EMULATOR_OPERATORS, set by start-server.sh) opens an incident on the database,
// posts two updates, resolves it and schedules a window, all through the operator view; an anonymous
// visitor sees each step on the page, in the Statuspage JSON and in the Atom feed; an operator who
// only has a keyboard starts at the top of the page, opens an incident, posts an update, corrects
// its text and deletes it, landing on each result; a signed-in non-operator gets 403 JSON from every
// operator endpoint and never sees the view.

/** `YYYY-MM-DDTHH:MM` in UTC, `hours` from now: what the window's datetime-local fields take. */
function utcField(hours: number): string {
  return new Date(Date.now() + hours * 3_600_000).toISOString().slice(0, 16);
}

test.beforeAll(async ({ request }) => {
  await requireEmulator(request);
});

test("an operator runs an incident and a window while an anonymous visitor watches", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const tag = Date.now().toString(36);
  const title = `Database unreachable ${tag}`;
  const view = await operatorView(page);

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto("/apotheosis");
  await expect(visitor.getByTestId("notices")).toBeVisible();
  await expect(visitor.getByTestId("operator-view")).toHaveCount(0);

  const seen = async (words: string) => {
    await visitor.reload();
    await expect(visitor.getByTestId("notices")).toContainText(words);
    const feed = await (await visitor.request.get("/status/feed.atom")).text();
    expect(feed).toContain(title);
  };

  // Nothing of the actions is built before one is opened.
  await expect(view.getByRole("heading", { name: "Schedule maintenance" })).toBeVisible();
  await expect(view.locator("form")).toHaveCount(0);

  // Open: investigating, on the database.
  const open = await openAction(view, "Open an incident");
  await expect(view.locator("form")).toHaveCount(1);
  await open.getByLabel("Title").fill(title);
  await open.getByLabel("Impact").selectOption("major");
  await open.getByLabel("Database").check();
  await open.getByLabel("What people see (Markdown)").fill("We are **looking** into it.");
  await open.getByRole("button", { name: "Open incident" }).click();
  await expect(outcomeOf(open)).toContainText("Incident opened: ");
  await seen(title);
  const unresolved = await (await visitor.request.get("/api/v2/incidents/unresolved.json")).json();
  expect(JSON.stringify(unresolved)).toContain(title);

  // Two updates, then resolved.
  const update = await openAction(view, "Post an update");
  for (const [status, text] of [
    ["identified", "The disk is full."],
    ["monitoring", "Disk grown; watching."],
    ["resolved", "Fixed: the disk was full."],
  ] as const) {
    await update.getByLabel("Incident or window").selectOption({ label: `Incident: ${title}` });
    await update.getByLabel("Status", { exact: true }).selectOption(status);
    await update.getByLabel("Update (Markdown)").fill(text);
    const answered = page.waitForResponse(
      (r) => r.url().endsWith("/updates") && r.request().method() === "POST",
    );
    await update.getByRole("button", { name: "Post update" }).click();
    expect((await answered).status()).toBe(200);
    await expect(outcomeOf(update)).toContainText("Update posted to ");
    await seen(text);
  }
  const summary = await (await visitor.request.get("/api/v2/summary.json")).json();
  expect(JSON.stringify(summary.incidents)).not.toContain(title);
  const all = await (await visitor.request.get("/api/v2/incidents.json")).json();
  const mine = all.incidents.find((i: { name: string }) => i.name === title);
  expect(mine.status).toBe("resolved");
  expect(mine.incident_updates).toHaveLength(4);

  // A window tomorrow.
  const windowTitle = `Database upgrade ${tag}`;
  // An action opens from the keyboard too: its heading is the summary of a disclosure.
  const schedule = await openActionFromKeyboard(view, "Schedule maintenance");
  await schedule.getByLabel("Title").fill(windowTitle);
  // Closed and opened again, the action keeps what was typed.
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Enter");
  await expect(schedule).toBeHidden();
  await page.keyboard.press("Enter");
  await expect(schedule.getByLabel("Title")).toHaveValue(windowTitle);
  await schedule.getByLabel("Database").check();
  await schedule.getByLabel("Starts (UTC)").fill(utcField(24));
  await schedule.getByLabel("Ends (UTC)").fill(utcField(25));
  await schedule.getByLabel("What people see (Markdown)").fill("Sign-ins may fail for a minute.");
  await schedule.getByRole("button", { name: "Schedule window" }).click();
  await expect(outcomeOf(schedule)).toContainText("Window scheduled: ");
  await visitor.reload();
  await expect(visitor.getByTestId("notices")).toContainText(windowTitle);
  await expect(visitor.getByTestId("notices")).toContainText("left out of the uptime figures");
  const upcoming = await (
    await visitor.request.get("/api/v2/scheduled-maintenances/upcoming.json")
  ).json();
  expect(JSON.stringify(upcoming)).toContain(windowTitle);
  const plain = await (await visitor.request.get("/status/notices")).text();
  expect(plain).toContain(windowTitle);

  // The operator view is accessible, and looks right at both widths in both themes.
  expect(await axeViolations(page, "[data-testid=operator-view]")).toEqual([]);
  expect(await axeViolations(page, "[data-testid=notices]")).toEqual([]);
  await lookAtWidthsAndThemes(page, [
    [view, "status-operator-view"],
    [page.getByTestId("notices"), "status-notices"],
  ]);
  expect(baseURL).toBeTruthy();
});

/** Presses `key` until `target` has focus (at most `max` presses): how a keyboard user reaches it. */
async function pressUntil(page: Page, target: Locator, key = "Tab", max = 200): Promise<void> {
  for (let pressed = 0; pressed < max; pressed += 1) {
    await page.keyboard.press(key);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${key} ${max} times never reached the target`);
}

test("an operator with only a keyboard opens an incident, posts, corrects and deletes an update", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = Date.now().toString(36);
  const title = `Keyboard run ${tag}`;
  const [wrong, right] = [`The ${tag} disk is ful.`, `The ${tag} disk is full.`];
  const json = async () =>
    JSON.stringify(await (await page.request.get("/api/v2/incidents.json")).json());
  const view = await operatorView(page);

  // From the top of the page, Tab alone reaches the first action.
  await pressUntil(page, actionSummary(view, "Open an incident"));
  const open = await openActionFromKeyboard(view, "Open an incident");
  await typeIncident(page, open, { title, text: "Sign-ins are slow." });
  await tabTo(page, "Open incident");
  await page.keyboard.press("Enter");
  const opened = view.getByRole("status").filter({ hasText: `Incident opened: ${title}.` });
  await expect(opened).toBeFocused();
  // From the outcome line, Shift+Tab goes back to the button that posted, and Tab on to the next
  // control after the form: the next action (not back into this one's fields).
  await page.keyboard.press("Shift+Tab");
  await expect(page.locator(":focus")).toHaveAccessibleName("Open incident");
  await opened.focus();
  await tabTo(page, /^Post an update/);
  await expect(actionSummary(view, /^Post an update/)).toBeFocused();
  await page.keyboard.press("Enter");
  const update = view.getByRole("form", { name: /^Post an update/ });
  await expect(update).toBeVisible();
  await tabTo(page, "Incident or window");
  await page.keyboard.type(`Incident: ${title}`);
  await expect(update.getByLabel("Incident or window").locator("option:checked")).toHaveText(
    `Incident: ${title}`,
  );
  await tabTo(page, "Status");
  await page.keyboard.type("Identified");
  await tabTo(page, "Component status");
  await tabTo(page, "Update (Markdown)");
  await page.keyboard.type(wrong);
  await tabTo(page, "Post update");
  await page.keyboard.press("Enter");
  await expect(
    view.getByRole("status").filter({ hasText: `Update posted to ${title}.` }),
  ).toBeFocused();

  // Correct it: the newest notice's newest update is the first Edit in the action, the next
  // control after the update's outcome line.
  const name = `update 2 of ${title}`;
  await tabTo(page, "Edit or delete a posted update");
  await page.keyboard.press("Enter");
  await expect(view.getByRole("button", { name: `Edit ${name}` })).toBeVisible();
  await tabTo(page, `Edit ${name}`);
  await page.keyboard.press("Enter");
  const text = view.getByLabel(`Text of ${name} (Markdown)`);
  await expect(text).toBeFocused();
  await expect(text).toHaveValue(wrong);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(right);
  await tabTo(page, "Save");
  await page.keyboard.press("Enter");
  const corrected = view.getByRole("status").filter({ hasText: `Saved: ${name}.` });
  await expect(corrected).toBeFocused();
  await expect(page.getByTestId("notices")).toContainText(right);
  expect(await json()).toContain(right);
  expect(await json()).not.toContain(wrong);

  // Delete it, asked first; the incident keeps its first update, which offers no Delete.
  await pressUntil(page, view.getByRole("button", { name: `Delete ${name}` }), "Shift+Tab");
  await page.keyboard.press("Enter");
  await expect(view.getByText(new RegExp(`^Delete ${name}\\?`))).toBeFocused();
  await tabTo(page, "Delete it");
  await page.keyboard.press("Enter");
  await expect(view.getByRole("status").filter({ hasText: `Deleted: ${name}.` })).toBeFocused();
  await expect(view.getByRole("button", { name: `Delete update 1 of ${title}` })).toHaveCount(0);
  expect(await json()).not.toContain(right);
  expect(await axeViolations(page, "[data-testid=operator-view]")).toEqual([]);
});

test("a signed-in non-operator gets 403 JSON from every operator endpoint", async ({
  page,
  request,
  baseURL,
}) => {
  const jwt = await signInOverHttp(request, baseURL ?? "", "github", newAccount("not-operator"));
  const headers = { Authorization: `Bearer ${jwt.sessionJwt}` };
  const body = {
    title: "x",
    impact: "minor",
    components: ["db"],
    status: "investigating",
    body: "x",
  };
  const calls: [string, string][] = [
    ["GET", "/api/status/operator"],
    ["GET", "/api/status/operator/log"],
    ["POST", "/api/status/incidents"],
    ["POST", "/api/status/incidents/x/updates"],
    ["POST", "/api/status/maintenances"],
    ["POST", "/api/status/maintenances/x/updates"],
    ["PATCH", "/api/status/incidents/x/updates/1"],
    ["DELETE", "/api/status/incidents/x/updates/2"],
    ["PATCH", "/api/status/maintenances/x/updates/1"],
    ["PATCH", "/api/status/components/db"],
  ];
  for (const [method, path] of calls) {
    const data = method === "GET" || method === "DELETE" ? undefined : body;
    const answer = await request.fetch(path, { method, headers, data });
    expect(answer.status(), `${method} ${path}`).toBe(403);
    expect((await answer.json()).code).toBe("forbidden");
    const anonymous = await request.fetch(path, { method, data });
    expect(anonymous.status(), `${method} ${path} anonymous`).toBe(401);
  }
  await page.goto("/apotheosis");
  await expect(page.getByTestId("notices")).toBeVisible();
  await expect(page.getByTestId("operator-view")).toHaveCount(0);
});
