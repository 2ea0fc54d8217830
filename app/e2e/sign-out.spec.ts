import { expect, test } from "@playwright/test";
import { newAccount } from "./emulator-http";
import { requireEmulator, signIn } from "./sign-in";

// Sign-out: when the identity service cannot be reached, the failure is logged and the
// person still leaves signed out, on /, with nothing of the session left in the browser.

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
