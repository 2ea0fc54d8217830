import { expect, type Page, test } from "@playwright/test";
import { lookAt } from "./checks";
import { newAccount } from "./emulator-http";
import { requireEmulator, signIn } from "./sign-in";

// The dashboard tells the truth: 'Last updated' follows a save at once, 'Active
// sessions' counts signed-in browsers, and a new account reads 'Never updated'.

test.beforeAll(async ({ request }) => requireEmulator(request));

const sessions = (page: Page) => page.getByTestId("active-sessions");

test("a new account reads 'Never updated'; saving a new name shows the new time at once", async ({
  page,
}) => {
  await signIn(page, newAccount("fresh"));
  const updated = page.getByTestId("updated-at");
  // The sign-in's profile sync is not the person's change.
  await expect(updated).toHaveText("Never updated");
  await page.reload();
  await expect(updated).toHaveText("Never updated");

  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("Display name").fill("Renamed Person");
  const before = Date.now();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Name updated successfully")).toBeVisible();
  // No reload: the save's answer carries the new time.
  await expect(updated).not.toHaveText("Never updated");
  const shown = new Date((await updated.textContent()) ?? "").getTime();
  // Shown in the reader's locale to the second.
  expect(Math.abs(shown - before)).toBeLessThan(60_000);
  await page.reload();
  await expect(updated).not.toHaveText("Never updated");
});

test("a sign-in that changes nothing leaves 'Last updated' as it was", async ({ browser }) => {
  const account = newAccount("again");
  const first = await browser.newPage();
  await signIn(first, account);
  await expect(first.getByTestId("updated-at")).toHaveText("Never updated");
  await first.close();
  const second = await browser.newContext().then((context) => context.newPage());
  await signIn(second, account);
  await expect(second.getByTestId("updated-at")).toHaveText("Never updated");
  await second.context().close();
});

test("'Active sessions' counts browsers: reloads and refreshes keep it, logout takes one away", async ({
  browser,
}) => {
  const account = newAccount("devices");
  const laptop = await browser.newContext().then((context) => context.newPage());
  await signIn(laptop, account);
  await expect(sessions(laptop)).toHaveText("1");
  for (let i = 0; i < 3; i += 1) {
    await laptop.reload();
    await expect(laptop.getByTestId("user-email")).toHaveText(account.email);
    await expect(sessions(laptop)).toHaveText("1");
  }

  const phone = await browser.newContext().then((context) => context.newPage());
  await signIn(phone, account);
  await expect(sessions(phone)).toHaveText("2");
  await phone.reload();
  await expect(sessions(phone)).toHaveText("2");

  await phone.getByRole("button", { name: "Log out" }).click();
  await expect(phone).toHaveURL(/\/$/);
  await laptop.reload();
  await expect(sessions(laptop)).toHaveText("1");
  await lookAt(laptop, "dashboard-sessions-1280", { fullPage: true });
  await laptop.context().close();
  await phone.context().close();
});
