import type { Locator } from "@playwright/test";
import type { Account } from "./emulator-http";

// The status operator the e2e server knows (start-server.sh gives IDENTITY_EMULATOR_OPERATORS this
// address), and the operator view's actions as a person uses them (docs/status-operators.md).

export const STATUS_OPERATOR: Account = {
  email: "status-operator@e2e.example",
  name: "Status Operator",
  username: "status-operator",
};

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
