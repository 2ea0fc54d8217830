import { expect, type Page, test } from "@playwright/test";
import { axeViolations, lookAt, lookAtWidthsAndThemes, showTheme } from "./checks";
import { openActionFromKeyboard, operatorView, outcomeOf, tabTo, typeIncident } from "./operators";
import { requireEmulator } from "./sign-in";

// A component status an operator declares (docs/status-operators.md, "Component statuses"), run from
// the keyboard alone: the operator opens an incident marking the database a major outage, and every
// surface says so within one round (the card, the overall words, the badge, the feed, summary.json,
// status.json, components.json); resolving it brings back what the checks measure. Focus lands on
// each form's outcome, and the page is axe-clean in both themes with the forms open and after each
// submit.

test.beforeAll(async ({ request }) => {
  await requireEmulator(request);
});

/** axe with every rule in the cosmic theme, then the theme's rules in the void one (same DOM). */
async function axeInBothThemes(page: Page, include?: string): Promise<void> {
  for (const theme of ["cosmic", "void"] as const) {
    await showTheme(page, theme);
    expect(await axeViolations(page, { include, themeOnly: theme === "void" }), theme).toEqual([]);
  }
}

/** What a declared outage changes on the page: the overall words, the card, the notices, the form. */
const DECLARED_PARTS = ["status-overall", "component-db", "notices", "operator-view"]
  .map((id) => `[data-testid="${id}"]`)
  .join(", ");

/** What the server's surfaces say of the database: summary.json, components.json, status.json. */
async function statuspage(page: Page): Promise<string[]> {
  const get = async (path: string) => (await page.request.get(path)).json();
  const db = (list: { id: string; status: string }[]) => list.find((c) => c.id === "db")?.status;
  const summary = await get("/api/v2/summary.json");
  const components = await get("/api/v2/components.json");
  const status = await get("/api/v2/status.json");
  return [db(summary.components), db(components.components), status.status.description];
}

test("an operator declares a major outage from the keyboard and every surface says so until resolved", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = Date.now().toString(36);
  const title = `Database down ${tag}`;
  const view = await operatorView(page);
  await expect(page.getByTestId("status-overall")).toHaveText("All Systems Operational");

  // Open an incident: the action's heading, then every field, from the keyboard.
  const open = await openActionFromKeyboard(view, "Open an incident");
  await typeIncident(page, open, {
    title,
    impact: "Major",
    componentStatus: "Major outage",
    text: "The database does not answer.",
  });
  await expect(open.getByLabel("Impact")).toHaveValue("major");
  await expect(open.getByLabel("Component status")).toHaveValue("major_outage");
  // Only what this deployment checks is offered: the e2e server has no queue.
  await expect(open.getByLabel("Telekinesis queue")).toHaveCount(0);
  await axeInBothThemes(page);
  await tabTo(page, "Open incident");
  await page.keyboard.press("Enter");
  const outcome = outcomeOf(open);
  await expect(outcome).toHaveText(`Incident opened: ${title}.`);
  await expect(outcome).toBeFocused();

  // Within one round (a post makes the next round run at once): the card and the overall words.
  await expect(page.getByTestId("stated-db")).toContainText("Major outage");
  await expect(page.getByTestId("stated-db")).toContainText("Declared by the operators");
  await expect(page.getByTestId("status-overall")).toHaveText("Partial System Outage");
  await expect(page.getByTestId("notices")).toContainText(title);
  expect(await statuspage(page)).toEqual(["major_outage", "major_outage", "Partial System Outage"]);
  const badge = await (await page.request.get("/status/badge/db.svg")).text();
  expect(badge).toContain("Database: down");
  const feed = await (await page.request.get("/status/feed.atom")).text();
  expect(feed).toContain("db: Major outage.");
  // The whole page was checked with the form open; since then only these parts changed.
  await axeInBothThemes(page, DECLARED_PARTS);
  await page.evaluate(() => window.scrollTo(0, 0));
  await lookAtWidthsAndThemes(page, [
    [page.getByTestId("status-overall"), "status-overall-major"],
    [page.getByTestId("component-db"), "status-card-major"],
  ]);
  await lookAt(page, "status-major-outage-top");
  await page.setViewportSize({ width: 1280, height: 900 });
  await lookAt(view, "operator-view-after-open");

  // A refusal is in the page's words, and focus lands on it.
  const update = await openActionFromKeyboard(view, /^Post an update/);
  const target = update.getByLabel("Incident or window");
  await target.focus();
  await page.keyboard.type(`Incident: ${title}`);
  await expect(target.locator("option:checked")).toHaveText(`Incident: ${title}`);
  await tabTo(page, "Status");
  await tabTo(page, "Component status");
  await page.keyboard.type("Keep");
  await tabTo(page, "Update (Markdown)");
  await page.keyboard.type("   ");
  await page.evaluate(() => {
    // The browser's own check of the required field would stop the post; the server's is shown.
    document.querySelector<HTMLTextAreaElement>("#update-body")?.removeAttribute("required");
  });
  await tabTo(page, "Post update");
  await page.keyboard.press("Enter");
  await expect(outcomeOf(update)).toHaveText(/^The update must be 1 to \d+ characters/);
  await expect(outcomeOf(update)).toBeFocused();
  await axeInBothThemes(page, '[data-testid="operator-view"]');

  // Resolved: the measure shows again everywhere.
  await target.focus();
  await expect(target.locator("option:checked")).toHaveText(`Incident: ${title}`);
  await tabTo(page, "Status");
  await page.keyboard.type("Resolved");
  await expect(update.getByLabel("Status", { exact: true })).toHaveValue("resolved");
  await tabTo(page, "Component status");
  await tabTo(page, "Update (Markdown)");
  await page.keyboard.type("Back up.");
  await tabTo(page, "Post update");
  await page.keyboard.press("Enter");
  await expect(outcomeOf(update)).toHaveText(`Update posted to ${title}.`);
  await expect(outcomeOf(update)).toBeFocused();
  await expect(page.getByTestId("stated-db")).toHaveText("Operational");
  await expect(page.getByTestId("status-overall")).toHaveText("All Systems Operational");
  expect(await statuspage(page)).toEqual(["operational", "operational", "All Systems Operational"]);
  // No axe here: the page is as it was at the start, checked then, and the update's outcome is the
  // same element as the opened incident's, checked above.
});
