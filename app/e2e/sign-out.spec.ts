import { expect, test } from "@playwright/test";
import { newAccount } from "./emulator-http";
import { requireEmulator, signIn } from "./sign-in";

// Sign-out: when the identity service cannot be reached, the failure is logged and the
// person still leaves signed out, on /, with nothing of the session left in the browser. And the
// restore on load: a refresh the service does not answer keeps the sign-in and says so; one it
// refuses as too many requests signs out saying that, not that the sign-in ended.

test.beforeAll(async ({ request }) => requireEmulator(request));

const storedKeys = (page: import("@playwright/test").Page) =>
  page.evaluate(() =>
    [localStorage, sessionStorage].flatMap((store) =>
      Object.keys(store).filter((key) => key !== "theme"),
    ),
  );

test("a logout the identity service never answers still clears the session and lands on /", async ({
  page,
}) => {
  await signIn(page, newAccount("offline-logout"));
  expect(await storedKeys(page)).toEqual(expect.arrayContaining(["DS", "DSR"]));
  // The identity service is unreachable from here on.
  await page.route("**/v1/auth/**", (route) => route.abort("connectionrefused"));
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("button", { name: "Log in" })).toBeVisible();
  await expect(nav.getByRole("button", { name: /^Account/ })).toHaveCount(0);
  // The tokens and the session id are gone (the SDK's remembered login name may stay, as it does
  // after any logout).
  const left = await storedKeys(page);
  for (const key of ["DS", "DSR", "mg-session-id"]) expect(left).not.toContain(key);
  expect(errors.join("\n")).toMatch(/Logout failed/);

  // Still signed out after a reload, and /home sends people away.
  await page.reload();
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
  await page.goto("/home");
  await expect(page).toHaveURL(/\/$/);
});

// The SDK's refresh (with or without a query string).
const REFRESH = /\/v1\/auth\/refresh(\?|$)/;

test("a restore the identity service does not answer keeps the sign-in and says so", async ({
  page,
}) => {
  const account = newAccount("idp-down");
  await signIn(page, account);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  const notice = page.getByTestId("signed-out-notice");
  for (const down of [
    // (The SDK asks again on a 503 for about 10 s first; a 500 it takes at once.)
    () => page.route(REFRESH, (route) => route.fulfill({ status: 500, body: "{}" })),
    () => page.route(REFRESH, (route) => route.abort("connectionrefused")),
  ]) {
    await page.unrouteAll();
    await down();
    await page.goto("/home");
    await expect(notice).toHaveText(
      "We could not reach the sign-in service, so you are not signed in on this page. Reload to try again.Dismiss",
    );
    await expect(notice).toBeFocused();
    await expect(page).toHaveURL(/\/$/);
    // Not signed out: the tokens and the session id are kept for the next load.
    expect(await storedKeys(page)).toEqual(expect.arrayContaining(["DS", "DSR", "mg-session-id"]));
  }
  await page.unrouteAll();
  await page.goto("/home");
  await expect(page.getByTestId("user-email")).toHaveText(account.email);
  await expect(notice).toHaveCount(0);
  expect(errors.join("\n")).not.toMatch(/Uncaught/);
});

test("a restore refused as too many requests says so, not that the sign-in ended", async ({
  page,
}) => {
  await signIn(page, newAccount("idp-429"));
  await page.route(REFRESH, (route) =>
    route.fulfill({
      status: 429,
      contentType: "application/json",
      body: JSON.stringify({ errorCode: "E130429", errorDescription: "Too many requests" }),
    }),
  );
  await page.goto("/home");
  await expect(page).toHaveURL(/\/$/);
  const notice = page.getByTestId("signed-out-notice");
  await expect(notice).toHaveText(
    "You were signed out: the sign-in service refused too many requests. Sign in again in a minute.Dismiss",
  );
  await expect(notice).toBeFocused();
  // The SDK drops its tokens on a refused refresh: the browser is signed out.
  const left = await storedKeys(page);
  for (const key of ["DS", "DSR", "mg-session-id"]) expect(left).not.toContain(key);
});
