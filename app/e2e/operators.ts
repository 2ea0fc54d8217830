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

/** The outcome line of the action whose form is `form`: it sits just after the action's disclosure
 * (operator-action.tsx says why), so the next Tab from it goes on to the next control. */
export function outcomeOf(form: Locator): Locator {
  return form
    .locator("xpath=ancestor::div[contains(concat(' ', @class, ' '), ' operator__action-box ')][1]")
    .locator(":scope > .operator__action-outcome")
    .getByRole("status");
}
