import DescopeClient from "@descope/node-sdk";
import { type APIRequestContext, type APIResponse, expect, test } from "@playwright/test";
import { bearer, claimsOf, newAccount, PROJECT_ID, signInOverHttp } from "./emulator-http";

// The official server SDK, @descope/node-sdk, against the real server's identity emulator
// (docs/identity.md "Tokens and keys"): with `baseUrl` set to the server's origin it fetches the
// emulator's keys (GET /v2/keys/P2localemulator) and must verify the tokens the emulator issues as it
// would the hosted provider's. Tokens come from signing in over HTTP (start, provider page, form,
// code, exchange), as the web SDK does.

type Client = ReturnType<typeof DescopeClient>;

function client(baseURL: string | undefined, projectId = PROJECT_ID): Client {
  if (!baseURL) throw new Error("no baseURL");
  return DescopeClient({ projectId, baseUrl: baseURL });
}

/** The server's own verification of a session token: its current-user endpoint's answer. */
function currentUser(request: APIRequestContext, jwt: string): Promise<APIResponse> {
  return request.post("/api/auth/current-user", { headers: { Authorization: `Bearer ${jwt}` } });
}

/** Rewrites one claim of a signed token, keeping the original header and signature. */
function withClaim(jwt: string, name: string, value: unknown): string {
  const [header, , signature] = jwt.split(".");
  const claims = { ...claimsOf(jwt), [name]: value };
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return [header, payload, signature].join(".");
}

test("validateSession accepts a session token issued by the emulator", async ({
  request,
  baseURL,
}) => {
  const account = newAccount("node-sdk");
  const signedIn = await signInOverHttp(request, baseURL ?? "", "github", account);
  const sdk = client(baseURL);

  const info = await sdk.validateSession(signedIn.sessionJwt);
  expect(info.jwt).toBe(signedIn.sessionJwt);
  expect(info.token.sub).toBe(signedIn.user.userId);
  expect(info.token.iss).toBe(PROJECT_ID);
  expect(info.token.drn).toBe("DS");
  expect(info.token.amr).toEqual(["oauth"]);
  expect(info.token.email).toBe(account.email);
  expect(Number(info.token.exp)).toBeGreaterThan(Date.now() / 1000);

  // The server's own verification agrees with the SDK's: the same token reads the same user.
  const me = await currentUser(request, signedIn.sessionJwt);
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { data: { email: string } }).data.email).toBe(account.email);
});

test("validateSession rejects tampered tokens and tokens of another project", async ({
  request,
  baseURL,
}) => {
  const signedIn = await signInOverHttp(request, baseURL ?? "", "google", newAccount("tamper"));
  const sdk = client(baseURL);
  const token = signedIn.sessionJwt;
  const [header, payload, signature] = token.split(".");

  const forged = {
    "another user's id": withClaim(token, "sub", "someone-else"),
    "a later expiry": withClaim(token, "exp", Number(claimsOf(token).exp) + 86_400),
    "a flipped signature byte": [
      header,
      payload,
      `${signature?.slice(0, 10)}${signature?.[10] === "A" ? "B" : "A"}${signature?.slice(11)}`,
    ].join("."),
    "no signature": [header, payload, ""].join("."),
    "alg none": [
      Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url"),
      payload,
      "",
    ].join("."),
    "an unknown kid": [
      Buffer.from(
        JSON.stringify({
          ...JSON.parse(Buffer.from(header ?? "", "base64url").toString()),
          kid: "x",
        }),
      ).toString("base64url"),
      payload,
      signature,
    ].join("."),
  };
  for (const [kind, jwt] of Object.entries(forged)) {
    await expect(sdk.validateSession(jwt), kind).rejects.toThrow(/session validation failed/);
    // And the server refuses the same forgery.
    const answer = await currentUser(request, jwt);
    expect(answer.status(), kind).toBe(401);
  }

  // The untouched token still verifies (the forgeries failed for what was changed, not by accident).
  await expect(sdk.validateSession(token)).resolves.toMatchObject({ jwt: token });
  // A client for another project finds no key for the token (the emulator publishes none for it).
  await expect(client(baseURL, "P2someotherproject").validateSession(token)).rejects.toThrow(
    /session validation failed/,
  );
});

test("a refresh token is not a session token: the SDK marks it DSR and the server refuses it", async ({
  request,
  baseURL,
}) => {
  const signedIn = await signInOverHttp(request, baseURL ?? "", "discord", newAccount("refresh"));
  const sdk = client(baseURL);
  // node-sdk's validateSession checks signature, expiry and issuer only; it does not look at `drn`
  // (its refreshSession verifies refresh tokens with the same call). So the refresh token verifies as
  // a JWT, and what tells it apart is its `drn` claim: an API built on node-sdk must check it, as this
  // server does.
  const info = await sdk.validateSession(signedIn.refreshJwt);
  expect(info.token.drn).toBe("DSR");
  expect(info.token.sub).toBe(signedIn.user.userId);
  const refused = await currentUser(request, signedIn.refreshJwt);
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ code: "unauthorized" });
});

test("refreshSession gets a new session from the emulator until logout ends the refresh token", async ({
  request,
  baseURL,
}) => {
  const signedIn = await signInOverHttp(request, baseURL ?? "", "microsoft", newAccount("renew"));
  const sdk = client(baseURL);

  const renewed = await sdk.refreshSession(signedIn.refreshJwt);
  expect(renewed.token.sub).toBe(signedIn.user.userId);
  expect(renewed.token.drn).toBe("DS");
  expect(renewed.jwt).not.toBe(signedIn.sessionJwt);
  await expect(sdk.validateSession(renewed.jwt)).resolves.toMatchObject({ jwt: renewed.jwt });

  const logout = await request.post("/v1/auth/logout", { headers: bearer(signedIn.refreshJwt) });
  expect(logout.status()).toBe(200);
  expect(await logout.json()).toEqual({});
  await expect(sdk.refreshSession(signedIn.refreshJwt)).rejects.toThrow(
    /refresh token validation failed/,
  );
});
