import { type Browser, expect, type Page, test } from "@playwright/test";
import { SIGN_IN_STATE_KEY } from "../src/lib/sign-in-state";
import { newAccount } from "./emulator-http";
import { continueAs, requireEmulator, signIn, startSignIn } from "./sign-in";

// The callback exchanges only a code from a sign-in this browser started (docs/identity.md, "The
// sign-in's state"). Browser A starts a sign-in and is stopped on its way back to the callback, code
// in hand; browser B (another context: other storage, other cookies) is sent that link, as a login
// CSRF would send it. B must not exchange the code nor end up signed in, and A's own sign-in must
// still complete with it, which also shows the code was never spent. Everything runs for real: the
// app, the web SDK, the emulator and the API.

test.beforeAll(async ({ request }) => requireEmulator(request));

const REFUSAL =
  "This sign-in link was started in another browser or has already been used. Please sign in again.";

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

/** Records every exchange call the page's SDK makes. */
function exchangesOf(page: Page): string[] {
  const calls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/v1/auth/oauth/exchange")) calls.push(request.postData() ?? "");
  });
  return calls;
}

/** B after the refusal: on the landing page, with no session and no way into /home. */
async function expectSignedOut(page: Page) {
  await expect(page).toHaveURL(/\/\?error=callback_error$/, { timeout: 6_000 });
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("DSR"))).toBeNull();
  await page.goto("/home");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
}

test("a callback link started in another browser is refused there, and still completes where it started", async ({
  browser,
}) => {
  const a = await newPage(browser);
  const b = await newPage(browser);
  try {
    const account = newAccount("csrf");
    // A: the login modal, the provider page, Continue; the provider's redirect back is read and not
    // followed, so A's callback page never loads and its code is not exchanged yet.
    await startSignIn(a.page, "Discord");
    await a.page.waitForURL(/\/emulator\/oauth\/discord\?/);
    const state = await a.page.evaluate((key) => sessionStorage.getItem(key), SIGN_IN_STATE_KEY);
    expect(state).toMatch(/^[A-Za-z0-9_-]{22}$/);
    let link = "";
    await a.page.route("**/emulator/oauth/discord", async (route) => {
      const answer = await route.fetch({ maxRedirects: 0 });
      link = new URL(answer.headers().location ?? "", route.request().url()).toString();
      await route.fulfill({ status: 204 });
    });
    await continueAs(a.page, account);
    await expect.poll(() => link).not.toBe("");
    const sent = new URL(link);
    expect(sent.searchParams.get("code")).toBeTruthy();
    expect(sent.searchParams.get("state")).toBe(state);

    // B never started a sign-in: nothing is exchanged, the page says why and goes home.
    const bExchanges = exchangesOf(b.page);
    await b.page.goto(link);
    await expect(b.page.getByText(REFUSAL)).toBeVisible();
    await expect(b.page.getByRole("heading", { name: "Authentication Issue" })).toBeVisible();
    await expectSignedOut(b.page);

    // B with a sign-in of its own under way (its own state stored): A's link is refused all the same.
    await startSignIn(b.page, "Google");
    await b.page.waitForURL(/\/emulator\/oauth\/google\?/);
    expect(await b.page.evaluate((key) => sessionStorage.getItem(key), SIGN_IN_STATE_KEY)).not.toBe(
      state,
    );
    await b.page.goto(link);
    await expect(b.page.getByText(REFUSAL)).toBeVisible();
    await expectSignedOut(b.page);
    expect(bExchanges, "B never called the exchange").toEqual([]);

    // A, where the sign-in started: the same link completes it (so B did not spend the code).
    await a.page.unroute("**/emulator/oauth/discord");
    await a.page.goto(link);
    await expect(a.page).toHaveURL(/\/home$/, { timeout: 12_000 });
    await expect(a.page.getByTestId("user-email")).toHaveText(account.email);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});

test("the state is single use: opening the callback link again in the same tab is refused before any exchange", async ({
  page,
}) => {
  const link = await signIn(page, newAccount("replay"), "GitHub");
  expect(await page.evaluate((key) => sessionStorage.getItem(key), SIGN_IN_STATE_KEY)).toBeNull();

  const exchanges = exchangesOf(page);
  await page.goto(link);
  await expect(page.getByText(REFUSAL)).toBeVisible();
  expect(exchanges).toEqual([]);
});
