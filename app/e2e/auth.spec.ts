import { type Browser, expect, type Page, test } from "@playwright/test";
import { newAccount } from "./emulator-http";
import { openCallback, plantSignInState, requireEmulator, signIn, startSignIn } from "./sign-in";

// Sign-in end to end against the real server and its local identity emulator
// (docs/identity.md). Nothing is intercepted except the one test that needs the exchange to hang:
// the app, the web SDK, the emulator, the API and the database all run for real.
//
// Run: E2E_PORT=4178 npx playwright test auth
//
// The browser sign-in helpers and what they assume about the emulator are in ./sign-in.
const FAILURES = {
  providerNotEnabled: /is not enabled in the identity project/,
  userMustExist: /the user must exist/,
  providerError: /back with \?err=/,
} as const;

const PROVIDERS = [
  { id: "google", label: "Google" },
  { id: "github", label: "GitHub" },
  { id: "microsoft", label: "Microsoft" },
  { id: "facebook", label: "Facebook" },
  { id: "discord", label: "Discord" },
  { id: "linkedin", label: "LinkedIn" },
] as const;

test.beforeAll(async ({ request }) => requireEmulator(request));

/** Picks one of the emulator's simulated failures and continues. */
async function failWith(page: Page, outcome: RegExp) {
  await page.getByLabel(outcome).check();
  await page.getByRole("button", { name: "Continue" }).click();
}

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

// Spec 4 (callback): the profile the callback stores names the provider the person signed in with.
// Read back from the server with the page's own session token (the one the app sends to the API).
// Discord is the fallback when the provider cannot be told, so only the other providers can show
// that the stored name is the one signed in with.
for (const provider of PROVIDERS) {
  test(`signs in with ${provider.label}, lands on /home with the e-mail and provider, and the server stores it`, async ({
    page,
    request,
  }) => {
    const account = newAccount(provider.id);
    const apiCall = page.waitForRequest(
      (r) => r.url().endsWith("/api/auth/current-user") && !!r.headers().authorization,
    );
    await signIn(page, account, provider.label);
    await expect(page.getByTestId("login-provider")).toHaveText(provider.label);
    await expect(page.getByTestId("auth-status")).toHaveText("Authenticated");
    await expect(page.getByTestId("db-id")).not.toBeEmpty();
    await expect(page.getByTestId("updated-at")).toBeVisible();

    const authorization = (await apiCall).headers().authorization ?? "";
    expect(authorization).toMatch(/^Bearer ey/);
    const answer = await request.post("/api/auth/current-user", {
      headers: { Authorization: authorization },
    });
    expect(answer.status()).toBe(200);
    const { data } = (await answer.json()) as {
      data: {
        email: string;
        name: string;
        profile: { oauthProvider?: string; oauthData?: Record<string, unknown> } | null;
      };
    };
    expect(data.email).toBe(account.email);
    expect(data.name).toBe(account.name);
    if (provider.id !== "discord") expect(data.profile?.oauthProvider).toBe(provider.id);
    expect(data.profile?.oauthData).toMatchObject({
      username: account.username,
      displayName: account.name,
    });
  });
}

test("the first sign-in stores the provider's name; a later one keeps an edited name", async ({
  page,
}) => {
  const account = newAccount("keep");
  await signIn(page, account);
  await expect(page.getByTestId("display-name")).toHaveText(account.name);

  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await page.getByLabel("Display name").fill("Edited Name");
  await page.getByLabel("Display name").press("Enter");
  await expect(page.getByTestId("display-name")).toHaveText("Edited Name");

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await signIn(page, account);
  await expect(page.getByTestId("display-name")).toHaveText("Edited Name");
});

test("editing the name: the success message goes after 3 s; an empty name is refused and not stored", async ({
  page,
}) => {
  const account = newAccount("edit");
  await signIn(page, account);

  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await page.getByLabel("Display name").fill("Grace Hopper");
  await page.getByLabel("Display name").press("Enter");
  const success = page.getByText("Name updated successfully");
  await expect(success).toBeVisible();
  const shownAt = Date.now();
  await expect(success).toBeHidden({ timeout: 6_000 });
  expect(Date.now() - shownAt).toBeGreaterThan(2_000);
  await expect(page.getByTestId("updated-at")).not.toHaveText("Never updated");

  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await page.getByLabel("Display name").fill("   ");
  await page.getByLabel("Display name").press("Enter");
  await expect(page.getByRole("alert")).toHaveText("Name cannot be empty");
  await page.getByLabel("Display name").press("Escape");
  await page.reload();
  await expect(page.getByTestId("display-name")).toHaveText("Grace Hopper");
});

test("a reload keeps the session", async ({ page }) => {
  const account = newAccount("reload");
  await signIn(page, account);
  await page.reload();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId("user-email")).toHaveText(account.email);
});

test("logout ends the session, and /home then sends people to /", async ({ page }) => {
  await signIn(page, newAccount("logout"));
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
  await page.goto("/home");
  await expect(page).toHaveURL(/\/$/);
});

test("the user menu in the navigation leads to the dashboard and logs out", async ({ page }) => {
  const account = newAccount("menu");
  await signIn(page, account);
  await page.goto("/");
  const menu = page.getByRole("button", { name: `Account: ${account.name}` });
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await page.getByRole("menuitem", { name: "Dashboard" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.goto("/");
  await page.getByRole("button", { name: `Account: ${account.name}` }).click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
});

test("an anonymous visitor asking for /home is sent to /", async ({ page }) => {
  await page.goto("/home");
  await expect(page).toHaveURL(/\/$/);
});

test.describe("failures, with the spec's exact messages", () => {
  test("the provider not enabled in the identity project", async ({ page }) => {
    await startSignIn(page, "Discord");
    await failWith(page, FAILURES.providerNotEnabled);
    await expect(page.getByRole("heading", { name: "Authentication Issue" })).toBeVisible();
    await expect(
      page.getByText(
        "OAuth Provider Configuration Required - Discord may not be enabled in the identity provider",
      ),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Run Diagnostic" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Home" })).toBeVisible();
  });

  test("a new user that must be registered first", async ({ page }) => {
    await startSignIn(page, "Google");
    await failWith(page, FAILURES.userMustExist);
    await expect(
      page.getByText("New user registration may be required. Please contact support."),
    ).toBeVisible();
  });

  test("a provider-side error shows the callback error, then goes to /?error=callback_error", async ({
    page,
  }) => {
    await startSignIn(page, "GitHub");
    await failWith(page, FAILURES.providerError);
    await expect(page.getByText("Authentication error: access_denied")).toBeVisible();
    const shownAt = Date.now();
    await expect(page).toHaveURL(/\/\?error=callback_error$/, { timeout: 6_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(2_000);
  });

  test("a reused code fails the exchange ('Authentication failed: ...', help on 127.0.0.1)", async ({
    page,
  }) => {
    const callbackUrl = await signIn(page, newAccount("reuse"));
    // The callback took this tab's state; put it back, so the second visit reaches the exchange
    // (without it the page refuses before any exchange: callback-state.spec.ts).
    await plantSignInState(page, new URL(callbackUrl).searchParams.get("state") ?? "");
    await page.goto(callbackUrl);
    await expect(page.getByText(/^Authentication failed: /)).toBeVisible();
    // On localhost the help is shown instead of the redirect (spec 8).
    await expect(page.getByRole("button", { name: "Run Diagnostic" })).toBeVisible();
  });

  test("no code: the message, then /?error=no_code after 3 s", async ({ page }) => {
    await page.goto("/auth/callback");
    await expect(
      page.getByText("No authorization code received from OAuth provider"),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/\?error=no_code$/, { timeout: 6_000 });
  });

  test("an exchange that never answers times out after 10 s", async ({ page }) => {
    await page.route("**/v1/auth/oauth/exchange", () => {
      // Never answered: the callback machine's 10 s timeout decides.
    });
    await openCallback(page, "code=never-answered");
    await expect(page.getByText("Completing authentication...")).toBeVisible();
    await expect(page.getByText("Authentication timeout - please try again")).toBeVisible({
      timeout: 13_000,
    });
  });

  test("the diagnostic runs four checks with pass or fail and a hint", async ({ page }) => {
    // An unknown code fails the exchange; on 127.0.0.1 the help stays up instead of redirecting.
    await openCallback(page, "code=not-a-real-code");
    await page.getByRole("button", { name: "Run Diagnostic" }).click();
    const dialog = page.getByRole("dialog", { name: "Authentication Diagnostic" });
    const checks = dialog.getByRole("listitem");
    await expect(checks).toHaveCount(4);
    await expect(dialog.locator('[data-check="config"]')).toContainText("Pass");
    await expect(dialog.locator('[data-check="identity"]')).toContainText("Pass");
    await expect(dialog.locator('[data-check="redirect"]')).toContainText("Pass");
    // Nobody is signed in here, so the API rightly refuses the (absent) session.
    await expect(dialog.locator('[data-check="api"]')).toContainText("Fail");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });
});

test("two users in two browser contexts never see each other's data", async ({ browser }) => {
  const a = await newPage(browser);
  const b = await newPage(browser);
  try {
    const alice = newAccount("alice");
    const bob = newAccount("bob");
    await signIn(a.page, alice);
    await signIn(b.page, bob);
    await a.page.reload();
    await b.page.reload();
    await expect(a.page.getByTestId("user-email")).toHaveText(alice.email);
    await expect(b.page.getByTestId("user-email")).toHaveText(bob.email);
    await expect(a.page.getByTestId("display-name")).toHaveText(alice.name);
    await expect(b.page.getByTestId("display-name")).toHaveText(bob.name);
    await expect(a.page.getByText(bob.email)).toHaveCount(0);
    await expect(b.page.getByText(alice.email)).toHaveCount(0);
    const aliceId = await a.page.getByTestId("db-id").textContent();
    const bobId = await b.page.getByTestId("db-id").textContent();
    expect(aliceId).not.toBe(bobId);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});
