import { type APIRequestContext, type Browser, expect, type Page } from "@playwright/test";
import { SIGN_IN_STATE_KEY } from "../src/lib/sign-in-state";
import type { Account } from "./emulator-http";

// Sign-in through the browser, against the server's local identity emulator (docs/identity.md):
// the top navigation's "Log in", the login modal, the emulator's provider page and back to /home.
//
// What this assumes about the server's emulator (emulator/src/page.rs):
// - The server injects `mg-runtime-config` with the identity project id; `GET /v2/keys/{id}` answers
//   JSON keys when the emulator is on (requireEmulator fails a spec's tests otherwise).
// - The provider page (/emulator/oauth/{provider}) says "Local identity emulator", has fields labelled
//   E-mail, Name and Username, an Outcome radio group and a "Continue" button.
// - The top navigation (SanctifiedNav) is in the header, with its "Log in" button.
export const EMULATOR_MARK = /local identity emulator/i;

/**
 * For test.beforeAll: fails the spec when the server runs without the identity emulator. Every
 * sign-in test runs against it, so a server without it is a broken test setup, never a reason to
 * pass with nothing run.
 */
export async function requireEmulator(request: APIRequestContext) {
  const html = await (await request.get("/")).text();
  const projectId = /"identityProjectId"\s*:\s*"([^"]+)"/.exec(html)?.[1];
  expect(projectId, "the page names an identity project").toBeTruthy();
  const keys = await request.get(`/v2/keys/${projectId}`);
  const body = (await keys.json().catch(() => null)) as { keys?: unknown } | null;
  expect(
    Array.isArray(body?.keys),
    `the identity emulator answers GET /v2/keys/${projectId} with keys (is it on?)`,
  ).toBe(true);
}

/** Opens the login modal from the top navigation and picks a provider; ends on the emulator's page. */
export async function startSignIn(page: Page, providerLabel: string) {
  await page.goto("/");
  await page.getByRole("button", { name: "Log in" }).click();
  const dialog = page.getByRole("dialog", { name: "Choose Login Method" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: `Continue with ${providerLabel}` }).click();
  await expect(page.getByText(EMULATOR_MARK).first()).toBeVisible();
}

/**
 * From now on, the last address with a code the emulator sent this tab back to (/auth/callback?code=...
 * &state=...), read by the returned function.
 */
function callbackLinkOf(page: Page): () => string {
  let link = "";
  page.on("framenavigated", (frame) => {
    const url = new URL(frame.url());
    if (
      frame === page.mainFrame() &&
      url.pathname === "/auth/callback" &&
      url.searchParams.has("code")
    )
      link = frame.url();
  });
  return () => link;
}

/** Fills the emulator's account form and continues. */
export async function continueAs(page: Page, account: Account) {
  await page.getByLabel(/Another account: type it below/).check();
  await page.getByLabel("E-mail", { exact: true }).fill(account.email);
  await page.getByLabel("Name", { exact: true }).fill(account.name);
  await page.getByLabel("Username", { exact: true }).fill(account.username);
  await page.getByRole("button", { name: "Continue" }).click();
}

/**
 * Signs in as `account` through the login modal; ends on /home showing the account's e-mail. Returns
 * the callback link the emulator sent the tab back to (never empty): the link a test opens again.
 */
export async function signIn(
  page: Page,
  account: Account,
  providerLabel = "Discord",
): Promise<string> {
  await startSignIn(page, providerLabel);
  const link = callbackLinkOf(page);
  await continueAs(page, account);
  // The callback gives up after its own 10 s; a loaded shared machine can need more than 5 s to get
  // through exchange, current-user, update-profile and the dashboard.
  await expect(page).toHaveURL(/\/home$/, { timeout: 12_000 });
  await expect(page.getByTestId("user-email")).toHaveText(account.email);
  expect(link(), "the emulator sent the tab back to /auth/callback with a code").not.toBe("");
  return link();
}

/** A page in a browser context of its own: its own storage, as another browser has. */
export async function newBrowser(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/** `account` signed in from two browsers of its own: two sessions of one user. */
export async function signedInTwice(browser: Browser, account: Account): Promise<[Page, Page]> {
  const first = await newBrowser(browser);
  const second = await newBrowser(browser);
  await signIn(first, account);
  await signIn(second, account);
  return [first, second];
}

/**
 * Stores `state` in the page's sessionStorage as the login does when this tab starts a sign-in, before
 * the next document's own scripts run. Once per state: a later visit finds it taken, as in the app.
 */
export async function plantSignInState(page: Page, state: string) {
  await page.addInitScript(
    ({ key, state }) => {
      try {
        const planted = `e2e-planted:${state}`;
        if (location.protocol === "about:" || sessionStorage.getItem(planted)) return;
        sessionStorage.setItem(planted, "1");
        sessionStorage.setItem(key, state);
      } catch {
        // A document without storage (about:blank) is not the callback.
      }
    },
    { key: SIGN_IN_STATE_KEY, state },
  );
}

/**
 * Opens /auth/callback with `query` (say `code=...`) as this tab's own sign-in would come back: with
 * the state it stored. For the callback's behaviours past the state check (exchange errors, the
 * timeout, the failure page); the check itself is callback-state.spec.ts.
 */
export async function openCallback(page: Page, query: string) {
  const state = `e2e-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
  await plantSignInState(page, state);
  await page.goto(`/auth/callback?${query}&state=${state}`);
}
