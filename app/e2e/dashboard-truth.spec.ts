import { expect, type Page, test } from "@playwright/test";
import { horizontalOverflow, layoutShifts, lookAt, recordShifts, untilSettled } from "./checks";
import { newAccount } from "./emulator-http";
import { newBrowser, requireEmulator, signIn } from "./sign-in";

// The dashboard tells the truth: 'Last updated' follows a save at once, 'Active
// sessions' counts signed-in browsers, a new account reads 'Never updated', and a long address and
// display name are shown whole on a phone.

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
  const second = await newBrowser(browser);
  await signIn(second, account);
  await expect(second.getByTestId("updated-at")).toHaveText("Never updated");
  await second.context().close();
});

test("'Active sessions' counts browsers: reloads and refreshes keep it, logout takes one away", async ({
  browser,
}) => {
  const account = newAccount("devices");
  const laptop = await newBrowser(browser);
  await signIn(laptop, account);
  await expect(sessions(laptop)).toHaveText("1");
  for (let i = 0; i < 3; i += 1) {
    await laptop.reload();
    await expect(laptop.getByTestId("user-email")).toHaveText(account.email);
    await expect(sessions(laptop)).toHaveText("1");
  }

  const phone = await newBrowser(browser);
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

test("a long address and display name wrap whole at 375 px, moving nothing as they fill in", async ({
  page,
}) => {
  const account = newAccount("long");
  // Each about twice what a line holds at this width (longer ones move what is under them once).
  account.email = `a.long.address.${account.email}`;
  account.name = `A name long enough to wrap, ${account.name}`;
  await signIn(page, account);
  await page.setViewportSize({ width: 375, height: 740 });
  await recordShifts(page);
  await page.goto("/home");
  const address = page.getByTestId("user-email");
  const name = page.getByTestId("display-name");
  await expect(address).toHaveText(account.email);
  await expect(name).toHaveText(account.name);
  await untilSettled(page);
  // Whole: nothing of either is hidden, and each takes more than one line here.
  for (const shown of [address, name]) {
    const box = await shown.evaluate((node) => ({
      hidden: node.scrollWidth - node.clientWidth,
      lines: node.getClientRects().length,
      height: node.getBoundingClientRect().height,
      lineHeight: Number.parseFloat(getComputedStyle(node).lineHeight),
    }));
    expect(box.hidden).toBeLessThanOrEqual(0);
    expect(Math.max(box.lines, Math.round(box.height / box.lineHeight))).toBeGreaterThan(1);
  }
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await lookAt(page, "dashboard-long-names-375", { fullPage: true });
  const shifts = await layoutShifts(page);
  expect(
    shifts.reduce((sum, shift) => sum + shift.value, 0),
    JSON.stringify(shifts),
  ).toBe(0);
});
