import { expect, type Locator, type Page } from "@playwright/test";
import type { Account } from "./emulator-http";
import { signIn } from "./sign-in";

// The status operator the e2e server knows (start-server.sh gives IDENTITY_EMULATOR_OPERATORS this
// address), and the operator view's actions as a person uses them (docs/status-operators.md).

export const STATUS_OPERATOR: Account = {
  email: "status-operator@e2e.example",
  name: "Status Operator",
  username: "status-operator",
};

/** Signs `page` in as the status operator on /apotheosis: the operator view, once shown. */
export async function operatorView(page: Page): Promise<Locator> {
  await signIn(page, STATUS_OPERATOR);
  await page.goto("/apotheosis");
  const view = page.getByTestId("operator-view");
  await expect(view).toBeVisible();
  return view;
}

/** Presses Tab, as a person running the view from the keyboard, and expects focus on `name`. */
export async function tabTo(page: Page, name: string | RegExp): Promise<void> {
  await page.keyboard.press("Tab");
  await expect(page.locator(":focus")).toHaveAccessibleName(name);
}

/**
 * Opens one of the operator view's actions ("Open an incident", "Post an update", "Schedule
 * maintenance", "Set a component's status", "Add a webhook") by its heading, as a person does, and returns its form (named by
 * the same heading). An action already open is left open.
 */
export async function openAction(scope: Locator, name: string): Promise<Locator> {
  const action = scope.locator("details.operator__action", {
    has: scope.page().getByRole("heading", { name }),
  });
  if ((await action.getAttribute("open")) === null) {
    await action.getByRole("heading", { name }).click();
  }
  return action.getByRole("form", { name });
}

/** The summary of one of the operator view's actions (it holds the action's heading). */
export function actionSummary(view: Locator, name: string | RegExp): Locator {
  return view.locator("summary", { has: view.page().getByRole("heading", { name }) });
}

/**
 * Opens one of the operator view's actions from the keyboard: focus on its summary, then Enter.
 * Returns its form, once shown.
 */
export async function openActionFromKeyboard(
  view: Locator,
  name: string | RegExp,
): Promise<Locator> {
  await actionSummary(view, name).focus();
  await view.page().keyboard.press("Enter");
  const form = view.getByRole("form", { name });
  await expect(form).toBeVisible();
  return form;
}

/** The outcome line of the action whose form is `form`: it sits just after the action's disclosure
 * (operator-action.tsx says why), so the next Tab from it goes on to the next control. */
export function outcomeOf(form: Locator): Locator {
  return form
    .locator("xpath=ancestor::div[contains(concat(' ', @class, ' '), ' operator__action-box ')][1]")
    .locator(":scope > .operator__action-outcome")
    .getByRole("status");
}

/**
 * Fills the "Open an incident" form `open` from the keyboard, focus just before its Title: the title,
 * the impact and the component status typed as a person picks an option (left at their defaults when
 * not given), the database ticked, and the text people see. Focus stays on the text; the caller
 * submits.
 */
export async function typeIncident(
  page: Page,
  open: Locator,
  incident: { title: string; impact?: string; componentStatus?: string; text: string },
): Promise<void> {
  await tabTo(page, "Title");
  await page.keyboard.type(incident.title);
  await tabTo(page, "Impact");
  if (incident.impact) await page.keyboard.type(incident.impact);
  await tabTo(page, "API");
  await tabTo(page, "Database");
  await page.keyboard.press("Space");
  await expect(open.getByLabel("Database")).toBeChecked();
  await tabTo(page, "Component status");
  if (incident.componentStatus) await page.keyboard.type(incident.componentStatus);
  await tabTo(page, "Status");
  // Offered only while the checks have an incident of their own open.
  const attach = "Attach to the checks' incident";
  if ((await open.getByLabel(attach).count()) > 0) await tabTo(page, attach);
  await tabTo(page, "What people see (Markdown)");
  await page.keyboard.type(incident.text);
}
