import { readFileSync } from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { psql, startPair, withoutPostgres } from "./account-servers";
import { axeViolations, horizontalOverflow, lookAt } from "./checks";
import { newAccount } from "./emulator-http";
import { requireEmulator, signIn } from "./sign-in";

// "Your data" on the account page: the download holds the profile and both sessions; deleting the
// account (after its dialog) signs out every browser and leaves no row of the user in any table
// (read straight from the PostgreSQL database the two instances share), and signing in again starts
// a new account that reads "Never updated". Then the account page with two sessions and the dialog,
// in both themes at 1280 and 375 px: axe clean, no horizontal scroll, screenshots to look at.
test.describe.configure({ timeout: 90_000 });

async function browserAt(browser: Browser, baseURL?: string): Promise<Page> {
  const context = await browser.newContext(baseURL ? { baseURL } : {});
  return context.newPage();
}

test("download my data, delete the account, and a later sign-in starts a new one", async ({
  browser,
}) => {
  test.skip(withoutPostgres !== false, withoutPostgres || undefined);
  const pair = await startPair(Number(process.env.E2E_PORT ?? 4173) + 460);
  try {
    const account = newAccount("leaving");
    const first = await browserAt(browser, pair.origins[0]);
    const second = await browserAt(browser, pair.origins[1]);
    await signIn(first, account);
    await signIn(second, account);
    await first.reload();
    await expect(first.getByTestId("session")).toHaveCount(2);

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

    const identityId: string = data.profile.id;
    const [[oldRow] = []] = psql(
      pair.databaseUrl,
      `SELECT id FROM users WHERE identity_id = '${identityId}'`,
    );
    expect(oldRow).toBeTruthy();

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
    // The other browser: signed out on its next request.
    await second.reload();
    await expect(second).toHaveURL(/\/$/);
    await expect(second.getByTestId("signed-out-notice")).toBeVisible();

    // No row of the user left in any table: none holds the identity id, the e-mail or the old
    // row's id. The identity emulator's own account (emulator_users) is the identity provider's,
    // which the deletion leaves as the dialog says.
    const tables = psql(
      pair.databaseUrl,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' " +
        "AND table_type = 'BASE TABLE' AND table_name NOT IN ('_sqlx_migrations', 'emulator_users')",
    ).map(([name]) => name as string);
    expect(tables).toEqual(
      expect.arrayContaining(["users", "sessions", "revoked_tokens", "token_cutoffs"]),
    );
    for (const table of tables) {
      const [[found] = []] = psql(
        pair.databaseUrl,
        `SELECT COUNT(*) FROM ${table} t WHERE t::text LIKE '%${identityId}%' ` +
          `OR t::text LIKE '%${account.email}%'`,
      );
      expect(found, `rows of the user in ${table}`).toBe("0");
    }
    const [[sessionsLeft] = []] = psql(
      pair.databaseUrl,
      `SELECT COUNT(*) FROM sessions WHERE user_id = ${oldRow}`,
    );
    expect(sessionsLeft).toBe("0");

    // Signing in again: a new account.
    await signIn(first, account);
    await expect(first.getByTestId("updated-at")).toHaveText("Never updated");
    await expect(first.getByTestId("session")).toHaveCount(1);
    const [[newRow] = []] = psql(
      pair.databaseUrl,
      `SELECT id FROM users WHERE identity_id = '${identityId}'`,
    );
    expect(Number(newRow)).toBeGreaterThan(Number(oldRow));
    await first.context().close();
    await second.context().close();
  } finally {
    await pair.stop();
  }
});

const widths = [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
] as const;

for (const theme of ["cosmic", "void"] as const) {
  for (const viewport of widths) {
    const suffix = `${theme}-${viewport.width}`;
    test(`the account page and its dialog in ${theme} at ${viewport.width} px`, async ({
      browser,
      request,
    }) => {
      await requireEmulator(request);
      const account = newAccount(`account-a11y-${suffix}`);
      const [page, other] = [await browserAt(browser), await browserAt(browser)];
      for (const each of [page, other]) {
        await each.addInitScript((value) => localStorage.setItem("theme", value), theme);
        await signIn(each, account);
      }
      await page.setViewportSize(viewport);
      await page.reload();
      await expect(page.getByTestId("session")).toHaveCount(2);
      // The exact time of the last activity shows on keyboard focus.
      await page.locator("time.relative-time").first().focus();
      expect(await axeViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await lookAt(page, `account-sessions-${suffix}`, { fullPage: true });

      await page.getByRole("button", { name: "Delete my mg-web account" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await lookAt(page, `account-delete-dialog-${suffix}`);
      await page.context().close();
      await other.context().close();
    });
  }
}
