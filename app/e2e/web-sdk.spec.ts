import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";
import { newAccount, PROJECT_ID } from "./emulator-http";

// The official browser SDK, @descope/web-js-sdk, driven directly in Chromium against the real server's
// identity emulator: every call the app relies on (oauth.start, oauth.exchange, refresh, me, logout).
// The app itself only calls me() when a refresh answers without a user, which the emulator never does,
// so auth.spec.ts cannot show that me() works; this spec calls each one and checks the answers.
//
// The SDK's own browser bundle (dist/index.umd.js, global `Descope`) is put into a plain page of the
// server's origin (robots.txt, so the app and its own SDK instance stay out of the way). Playwright
// injects it as an inline script, which the server's CSP rightly forbids, hence `bypassCSP`.

const SDK_BUNDLE = join(
  dirname(fileURLToPath(import.meta.url)),
  "../node_modules/@descope/web-js-sdk/dist/index.umd.js",
);
const BLANK = "/robots.txt";

test.use({ bypassCSP: true });

/** Opens `path` on the server's origin and creates the SDK there as `window.sdk`, as the app does. */
async function withSdk(page: Page, path = BLANK) {
  await page.goto(path);
  await page.addScriptTag({ path: SDK_BUNDLE });
  await page.evaluate((projectId) => {
    const w = window as unknown as {
      Descope: (options: Record<string, unknown>) => unknown;
      sdk: unknown;
    };
    w.sdk = w.Descope({
      projectId,
      baseUrl: location.origin,
      persistTokens: true,
      autoRefresh: false,
    });
  }, PROJECT_ID);
}

interface Answer {
  ok: boolean;
  code?: number;
  data?: Record<string, unknown>;
  error?: { errorCode?: string; errorDescription?: string };
}

/** Calls `sdk.<path>(...args)` in the page and returns the SDK's `{ok, code, data, error}`. */
function call(page: Page, path: string, ...args: unknown[]): Promise<Answer> {
  return page.evaluate(
    async ({ path, args }) => {
      // biome-ignore lint/suspicious/noExplicitAny: the SDK lives in the page, untyped here.
      let target: any = (window as any).sdk;
      const names = path.split(".");
      const method = names.pop() ?? "";
      for (const name of names) target = target[name];
      const answer = await target[method](...args);
      return { ok: answer.ok, code: answer.code, data: answer.data, error: answer.error };
    },
    { path, args },
  );
}

const tokens = (page: Page) =>
  page.evaluate(() => {
    // biome-ignore lint/suspicious/noExplicitAny: the SDK lives in the page, untyped here.
    const sdk = (window as any).sdk;
    return {
      session: sdk.getSessionToken() as string,
      refresh: sdk.getRefreshToken() as string,
      storedRefresh: localStorage.getItem("DSR"),
    };
  });

test("start, exchange, me, refresh and logout all work against the emulator", async ({
  page,
  baseURL,
}) => {
  const account = newAccount("web-sdk");
  await withSdk(page);

  // start: the provider page's address, on this server. The return address carries a query of its
  // own, as the app's does (its sign-in state), which must come back as it was, the code added.
  const returnTo = `${baseURL}${BLANK}?state=kept-as-sent`;
  const started = await call(page, "oauth.start", "github", returnTo);
  expect(started.ok, JSON.stringify(started.error)).toBe(true);
  const providerUrl = String(started.data?.url);
  expect(providerUrl.startsWith(`${baseURL}/emulator/oauth/github?`)).toBe(true);

  // The browser goes there, a person picks an account and continues, and comes back with ?code=.
  await page.goto(providerUrl);
  await page.getByLabel(/Another account: type it below/).check();
  await page.getByLabel("E-mail", { exact: true }).fill(account.email);
  await page.getByLabel("Name", { exact: true }).fill(account.name);
  await page.getByLabel("Username", { exact: true }).fill(account.username);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/robots\.txt\?state=kept-as-sent&code=/);
  const code = new URL(page.url()).searchParams.get("code");
  await withSdk(page, page.url());

  // exchange: signed in, and the SDK holds (and persists) the tokens.
  const exchanged = await call(page, "oauth.exchange", code);
  expect(exchanged.ok, JSON.stringify(exchanged.error)).toBe(true);
  const user = exchanged.data?.user as { userId: string; email: string; OAuth: object };
  expect(user.email).toBe(account.email);
  expect(user.OAuth).toEqual({ github: true });
  expect(exchanged.data?.firstSeen).toBe(true);
  expect(Number(exchanged.data?.sessionExpiration)).toBeGreaterThan(Date.now() / 1000);
  const afterExchange = await tokens(page);
  expect(afterExchange.session).toBe(exchanged.data?.sessionJwt);
  expect(afterExchange.refresh).toBe(exchanged.data?.refreshJwt);
  expect(afterExchange.storedRefresh).toBe(exchanged.data?.refreshJwt);

  // A fresh page (a reload, say) restores the session from storage: refresh, then me.
  await withSdk(page);
  expect((await tokens(page)).refresh).toBe(afterExchange.refresh);
  const refreshed = await call(page, "refresh");
  expect(refreshed.ok, JSON.stringify(refreshed.error)).toBe(true);
  expect(refreshed.data?.firstSeen).toBe(false);
  expect(refreshed.data?.user).toMatchObject({ userId: user.userId });
  const afterRefresh = await tokens(page);
  expect(afterRefresh.session).toBe(refreshed.data?.sessionJwt);
  expect(afterRefresh.session).not.toBe(afterExchange.session);

  const me = await call(page, "me");
  expect(me.ok, JSON.stringify(me.error)).toBe(true);
  expect(me.data).toMatchObject({
    userId: user.userId,
    email: account.email,
    name: account.name,
    OAuth: { github: true },
    status: "enabled",
  });
  // The first login id names the provider (docs/identity.md "User object").
  expect((me.data?.loginIds as string[] | undefined)?.[0]).toMatch(/^github/);

  // The server's API accepts the session token the SDK now holds.
  const current = await page.evaluate(async (token) => {
    const response = await fetch("/api/auth/current-user", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
    });
    return { status: response.status, body: await response.json() };
  }, afterRefresh.session);
  expect(current.status).toBe(200);
  expect(current.body.data.email).toBe(account.email);

  // logout: the SDK drops its tokens, and the refresh token is over at the emulator too.
  const loggedOut = await call(page, "logout");
  expect(loggedOut.ok, JSON.stringify(loggedOut.error)).toBe(true);
  const afterLogout = await tokens(page);
  expect(afterLogout.session).toBeFalsy();
  expect(afterLogout.refresh).toBeFalsy();
  expect(afterLogout.storedRefresh).toBeNull();
  const stale = await page.evaluate(
    async ({ projectId, refresh }) => {
      const response = await fetch("/v1/auth/refresh", {
        method: "POST",
        headers: { Authorization: `Bearer ${projectId}:${refresh}` },
      });
      return { status: response.status, body: await response.json() };
    },
    { projectId: PROJECT_ID, refresh: afterExchange.refresh },
  );
  expect(stale.status).toBe(401);
  expect(stale.body.errorCode).toBe("E061004");
});

test("the SDK reports the emulator's errors as {ok: false, error}", async ({ page, baseURL }) => {
  await withSdk(page);
  // An unknown provider, and a redirect to a foreign origin (no open redirect).
  const unknown = await call(page, "oauth.start", "myspace", `${baseURL}${BLANK}`);
  expect(unknown.ok).toBe(false);
  expect(unknown.code).toBeGreaterThanOrEqual(400);
  expect(unknown.error?.errorCode).toMatch(/^E\d{6}$/);
  const foreign = await call(page, "oauth.start", "github", "https://evil.example/auth/callback");
  expect(foreign.ok).toBe(false);
  expect(foreign.error?.errorCode).toBe("E011003");
  // A code that was never issued.
  const exchanged = await call(page, "oauth.exchange", "not-a-real-code");
  expect(exchanged.ok).toBe(false);
  expect(exchanged.code).toBe(400);
  expect((await tokens(page)).session).toBeFalsy();
  // Nobody signed in: refresh and me are refused, and nothing is stored.
  expect((await call(page, "refresh")).ok).toBe(false);
  expect((await call(page, "me")).ok).toBe(false);
  expect((await tokens(page)).storedRefresh).toBeNull();
});
