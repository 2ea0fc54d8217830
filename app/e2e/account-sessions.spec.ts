import { expect, type Page, test } from "@playwright/test";
import { lookAt } from "./checks";
import { newAccount } from "./emulator-http";
import { newBrowser, requireEmulator, signedInTwice, signIn } from "./sign-in";

// Signed-in devices on the account page: one person signed in from two browsers sees both sessions,
// with their labels, in each; signs the other out from the first; and the other browser is signed out
// on its next request (the identity provider's logout, its storage cleared) and lands on the home
// page with a notice. The same across two instances on one PostgreSQL database is proven without a
// browser (server/tests/api/revocation.rs).
test.describe.configure({ timeout: 90_000 });
test.beforeAll(async ({ request }) => requireEmulator(request));

// Each browser a context of its own, so each is its own signed-in session.
const sessionItems = (page: Page) => page.getByTestId("session");
const storedKeys = (page: Page) =>
  page.evaluate(() =>
    [localStorage, sessionStorage].flatMap((store) =>
      Object.keys(store).filter((key) => key !== "theme"),
    ),
  );

/** Both browsers list the same two sessions, each marking itself as this device. */
async function bothListed(first: Page, second: Page) {
  for (const page of [first, second]) {
    await page.reload();
    await expect(sessionItems(page)).toHaveCount(2);
    await expect(page.getByTestId("active-sessions")).toHaveText("2");
    // The test's browser is headless Chromium on Linux.
    await expect(sessionItems(page).filter({ hasText: "Chrome on Linux" })).toHaveCount(2);
    const mine = sessionItems(page).filter({ hasText: "This device" });
    await expect(mine).toHaveCount(1);
    // This device first; each row says when it signed in and when it was last active.
    await expect(sessionItems(page).first()).toContainText("This device");
    for (const field of ["Signed in", "Last active"]) {
      await expect(sessionItems(page).filter({ hasText: field })).toHaveCount(2);
    }
    await expect(mine.getByRole("button", { name: /^Sign out/ })).toHaveCount(0);
  }
}

async function signOutTheOther(first: Page, second: Page) {
  const other = sessionItems(first).filter({ hasNotText: "This device" });
  // By keyboard: focus the other session's button, press Enter.
  await other.getByRole("button", { name: "Sign out Chrome on Linux" }).focus();
  await first.keyboard.press("Enter");
  await expect(first.getByRole("status").filter({ hasText: "signed out." })).toBeVisible();
  await expect(sessionItems(first)).toHaveCount(1);
  await expect(first.getByTestId("active-sessions")).toHaveText("1");

  // The other browser's next request to the API: 401, and it signs itself out.
  await second.getByRole("button", { name: "Edit" }).click();
  await second.getByLabel("Display name").fill("Still here?");
  await second.getByRole("button", { name: "Save" }).click();
  await expect(second).toHaveURL(/\/$/);
  await expect(second.getByTestId("signed-out-notice")).toContainText(
    "ended from another device or browser",
  );
  await lookAt(second, "signed-out-notice-1280");
  await expect(second.getByRole("button", { name: "Log in" }).first()).toBeAttached();
  const left = await storedKeys(second);
  for (const key of ["DS", "DSR", "mg-session-id"]) expect(left).not.toContain(key);
  // Still signed out after a reload; /home sends it away.
  await second.goto("/home");
  await expect(second).toHaveURL(/\/$/);
}

test("a session signed out from another browser is signed out on its next request", async ({
  browser,
}) => {
  const account = newAccount("two-browsers");
  const [first, second] = await signedInTwice(browser, account);
  await bothListed(first, second);
  await lookAt(first, "dashboard-two-sessions-1280", { fullPage: true });
  await signOutTheOther(first, second);
  await first.context().close();
  await second.context().close();
});

// Browser B has two tabs on its account page, and browser A two, one with a list read before the
// other signed B out. A's stale tab signing B out again hears 404 `session_not_found` and reads the
// list again; B's first tab is signed out on its next request, and its second follows at once with
// the same notice, focused, with no request of its own.
test("every tab of a browser signed out follows at once; a stale list reads itself again", async ({
  browser,
}) => {
  const account = newAccount("two-tabs");
  const [first, second] = await signedInTwice(browser, account);
  const [firstStale, secondTab] = [
    await first.context().newPage(),
    await second.context().newPage(),
  ];
  for (const page of [first, firstStale, second, secondTab]) {
    await page.goto("/home");
    await expect(sessionItems(page)).toHaveCount(2);
  }
  await sessionItems(first)
    .getByRole("button", { name: /^Sign out Chrome on Linux/ })
    .click();
  await expect(first.getByRole("status").filter({ hasText: "signed out." })).toBeVisible();

  await sessionItems(firstStale)
    .getByRole("button", { name: /^Sign out Chrome on Linux/ })
    .click();
  await expect(
    firstStale.getByText("None of your sessions has this id; it may have ended already."),
  ).toBeVisible();
  await expect(sessionItems(firstStale)).toHaveCount(1);
  await expect(firstStale.getByRole("button", { name: /^Sign out Chrome on Linux/ })).toHaveCount(
    0,
  );
  await expect(firstStale.getByTestId("active-sessions")).toHaveText("1");

  // Authenticated calls of the second tab from here on (it should make none).
  const asked: string[] = [];
  secondTab.on("request", (sent) => {
    if (sent.headers().authorization) asked.push(sent.url());
  });
  await second.getByRole("button", { name: "Edit" }).click();
  await second.getByLabel("Display name").fill("Still here?");
  await second.getByRole("button", { name: "Save" }).click();
  await expect(second.getByTestId("signed-out-notice")).toContainText(
    "ended from another device or browser",
  );
  for (const page of [second, secondTab]) {
    await expect(page).toHaveURL(/\/$/);
    const notice = page.getByTestId("signed-out-notice");
    await expect(notice).toHaveText(
      "You were signed out: this browser's session was ended from another device or browser.Dismiss",
    );
    await expect(notice).toBeFocused();
  }
  expect(asked).toEqual([]);
  for (const page of [first, second]) await page.context().close();
});

test("all other sessions at once", async ({ browser }) => {
  const account = newAccount("all-others");
  const pages = [await newBrowser(browser), await newBrowser(browser), await newBrowser(browser)];
  for (const page of pages) await signIn(page, account);
  const [first, ...others] = pages as [Page, Page, Page];
  await first.reload();
  await expect(sessionItems(first)).toHaveCount(3);
  // It asks first, as the deletion does: Cancel (focused first) or Escape keeps every session.
  const opener = first.getByRole("button", { name: "Sign out of all other sessions" });
  await opener.click();
  const dialog = first.getByRole("dialog", { name: "Sign out of all other sessions?" });
  await expect(dialog).toContainText("This signs out 2 other sessions:");
  await expect(dialog).toContainText("This device stays signed in.");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await first.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  await expect(sessionItems(first)).toHaveCount(3);
  // By keyboard: open it, Tab from Cancel to the confirmation, Enter.
  await opener.press("Enter");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await first.keyboard.press("Tab");
  await first.keyboard.press("Enter");
  await expect(first.getByText("2 other sessions signed out.")).toBeVisible();
  await expect(first.getByText("2 other sessions signed out.")).toBeFocused();
  await expect(sessionItems(first)).toHaveCount(1);
  for (const page of others) {
    await page.reload();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("signed-out-notice")).toBeVisible();
  }
  for (const page of pages) await page.context().close();
});
