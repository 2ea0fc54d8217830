import { type APIRequestContext, expect } from "@playwright/test";

// Signs in through the server's identity emulator over plain HTTP, the way the web SDK and a browser
// do it (docs/identity.md "OAuth"): start, the provider page, its form, the 303 back with a code,
// then the exchange. Used by the specs that test the official SDKs against the emulator.

export const PROJECT_ID = "P2localemulator";

export interface Account {
  email: string;
  name: string;
  username: string;
}

export interface JwtResponse {
  sessionJwt: string;
  refreshJwt: string;
  sessionExpiration: number;
  firstSeen: boolean;
  claims: Record<string, unknown>;
  user: { userId: string; email: string; name: string; loginIds: string[] } & Record<
    string,
    unknown
  >;
}

/** A fresh account per call, so parallel workers and repeated runs never share a user. */
export function newAccount(tag: string): Account {
  const id = `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  return { email: `${id}@example.test`, name: `Tester ${id}`, username: id };
}

export const bearer = (refreshJwt?: string) => ({
  Authorization: `Bearer ${refreshJwt ? `${PROJECT_ID}:${refreshJwt}` : PROJECT_ID}`,
});

/** Start, provider page, form, 303: the one-time code the provider page sends back. */
export async function codeFor(
  request: APIRequestContext,
  origin: string,
  provider: string,
  account: Account,
): Promise<string> {
  const redirectURL = `${origin}/auth/callback`;
  const start = await request.post(
    `${origin}/v1/auth/oauth/authorize?provider=${provider}&redirectURL=${encodeURIComponent(redirectURL)}`,
    { headers: bearer(), data: {} },
  );
  expect(start.status(), await start.text()).toBe(200);
  const { url } = (await start.json()) as { url: string };
  const providerPage = await request.get(url);
  expect(providerPage.status()).toBe(200);
  const html = await providerPage.text();
  // Post the form where a browser would: its action, with its hidden state field.
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
  const state = /name="state" value="([^"]+)"/.exec(html)?.[1];
  expect(action, "the provider page has a form").toBeTruthy();
  expect(state, "the provider page's form carries its state").toBeTruthy();
  const back = await request.post(new URL(action ?? "", url).toString(), {
    form: {
      state: state ?? "",
      account: "custom",
      email: account.email,
      name: account.name,
      username: account.username,
      outcome: "sign-in",
      err: "access_denied",
    },
    maxRedirects: 0,
  });
  expect(back.status()).toBe(303);
  const location = new URL(back.headers().location ?? "", origin);
  expect(`${location.origin}${location.pathname}`).toBe(redirectURL);
  const code = location.searchParams.get("code");
  expect(code, "the redirect carries ?code=").toBeTruthy();
  return code ?? "";
}

/** The whole sign-in: the exchange's JWT response. */
export async function signInOverHttp(
  request: APIRequestContext,
  origin: string,
  provider: string,
  account: Account,
): Promise<JwtResponse> {
  const code = await codeFor(request, origin, provider, account);
  const exchange = await request.post(`${origin}/v1/auth/oauth/exchange`, {
    headers: bearer(),
    data: { code },
  });
  expect(exchange.status(), await exchange.text()).toBe(200);
  return (await exchange.json()) as JwtResponse;
}

/** Decodes a JWT's payload (no verification: for reading claims in assertions). */
export function claimsOf(jwt: string): Record<string, unknown> {
  const payload = jwt.split(".")[1] ?? "";
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
}
