import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { axeViolations, eachThemeAndWidth, horizontalOverflow, lookAt } from "./checks";
import { newAccount } from "./emulator-http";
import { requireEmulator, signedInTwice, signIn } from "./sign-in";

// "Your data" on the account page: the download holds the profile and both sessions; deleting the
// account (after its dialog) signs out every browser (every tab of the deleting one told the account
// was deleted, the other browser that it was signed out from another device), and signing in again
// starts a new account that reads "Never updated". That no row of any table names the deleted user, on SQLite and on
// PostgreSQL, is proven without a browser (server/tests/api/account.rs). Then the account page with
// two sessions and both dialogs, in both themes at 1280 and 390 px: axe clean, no horizontal scroll,
// screenshots to look at.
test.describe.configure({ timeout: 90_000 });
test.beforeAll(async ({ request }) => requireEmulator(request));

test("download my data, delete the account, and a later sign-in starts a new one", async ({
  browser,
}) => {
  const account = newAccount("leaving");
  const [first, second] = await signedInTwice(browser, account);
  await first.reload();
  await expect(first.getByTestId("session")).toHaveCount(2);
  // A second tab of the deleting browser, on the account page too.
  const firstTab = await first.context().newPage();
  await firstTab.goto("/home");
  await expect(firstTab.getByTestId("session")).toHaveCount(2);

  const download = first.waitForEvent("download");
  await first.getByRole("button", { name: "Download my data" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("mg-web-data.json");
  const data = JSON.parse(readFileSync((await file.path()) as string, "utf8"));
  expect(data.format).toBe("mg-web-export/1");
  expect(data.profile.email).toBe(account.email);
  expect(data.profile.name).toBe(account.name);
  expect(data.profile.loginProvider).toBe("discord");
  expect(data.sessions).toHaveLength(2);
  for (const session of data.sessions) expect(session.label).toBe("Chrome on Linux");
  await expect(first.getByText("Downloaded mg-web-data.json.")).toBeVisible();

  // The dialog says what goes and that the identity provider's account stays; Escape keeps all.
  const opener = first.getByRole("button", { name: "Delete my mg-web account" });
  await opener.click();
  const dialog = first.getByRole("dialog", { name: "Delete your mg-web account?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("identity provider");
  await expect(dialog).toContainText("separate");
  await first.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  await opener.press("Enter");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await first.keyboard.press("Tab");
  await first.keyboard.press("Enter");

  await expect(first).toHaveURL(/\/$/);
  await expect(first.getByTestId("signed-out-notice")).toContainText("account was deleted");
  // The deleting browser's other tab: signed out at once, told the same (not "another device").
  await expect(firstTab).toHaveURL(/\/$/);
  await expect(firstTab.getByTestId("signed-out-notice")).toContainText("account was deleted");
  await firstTab.close();
  // The other browser: signed out on its next request, from another device as far as it knows.
  await second.reload();
  await expect(second).toHaveURL(/\/$/);
  await expect(second.getByTestId("signed-out-notice")).toContainText(
    "from another device or browser",
  );

  // Signing in again: a new account.
  await signIn(first, account);
  await expect(first.getByTestId("updated-at")).toHaveText("Never updated");
  await expect(first.getByTestId("session")).toHaveCount(1);
  await first.context().close();
  await second.context().close();
});

const widths = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

// Signed in once from two browsers; the width and the theme change in place.
test("the account page and its dialogs in both themes at 1280 and 390 px", async ({ browser }) => {
  const account = newAccount("account-a11y");
  const [page, other] = await signedInTwice(browser, account);
  await page.reload();
  await expect(page.getByTestId("session")).toHaveCount(2);
  // axe in the second theme at a width: only the theme's rules (the screen is as the first saw it).
  // The exact time of the last activity shows on keyboard focus.
  await page.locator("time.relative-time").first().focus();
  await eachThemeAndWidth(page, widths, async ({ suffix, themeOnly }) => {
    expect(await axeViolations(page, { themeOnly }), suffix).toEqual([]);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await lookAt(page, `account-sessions-${suffix}`, { fullPage: true });
  });

  // The page behind the dialogs was checked just above: axe takes in the whole page with a dialog
  // open once (the first dialog, first theme and width), and the open dialog alone after that.
  await page.getByRole("button", { name: "Sign out of all other sessions" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await eachThemeAndWidth(page, widths, async ({ suffix, themeOnly, first }) => {
    const include = first ? undefined : "dialog[open]";
    expect(await axeViolations(page, { themeOnly, include }), suffix).toEqual([]);
    await lookAt(page, `account-sign-out-others-dialog-${suffix}`);
  });
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();

  await page.getByRole("button", { name: "Delete my mg-web account" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await eachThemeAndWidth(page, widths, async ({ suffix, themeOnly }) => {
    expect(await axeViolations(page, { themeOnly, include: "dialog[open]" }), suffix).toEqual([]);
    await lookAt(page, `account-delete-dialog-${suffix}`);
  });
  await page.context().close();
  await other.context().close();
});
