// The one fetch client of the app. Which message a failure shows is decided in the wasm core (spec 8),
// loaded on demand: the session provider imports this module on every page, the docs included.
import { apiBaseUrl } from "../config/env";
import { sessionId } from "./session/session-id";
import { loadCore } from "./wasm/load-core";

/** A failed call; `message` is what people see. `status` is undefined when no response arrived. */
export class ApiError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status: number | undefined) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

export interface RequestOptions {
  method?: "GET" | "POST" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  body?: unknown;
  /** Bearer token of the session, for authenticated calls. */
  token?: string;
  /** Send the session's bearer token from the registered provider (when `token` is not given). */
  auth?: boolean;
}

/** Finds the session's bearer token (the identity SDK's, or one in browser storage). */
export type TokenProvider = () => Promise<string | undefined> | string | undefined;

let tokenProvider: TokenProvider | undefined;

/** The code of the API's 401 for a session signed out from another session (docs/api.md). */
export const SESSION_REVOKED = "session_revoked";

let revokedHandler: (() => void) | undefined;

/** Registers what happens when the API says this browser's session was signed out elsewhere. */
export function setRevokedHandler(handler: (() => void) | undefined): void {
  revokedHandler = handler;
}

/** The `code` of an API error body, if the text is one. */
function errorCode(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { code?: unknown } | null;
    return typeof body?.code === "string" ? body.code : undefined;
  } catch {
    return undefined;
  }
}

/** Registers where `auth: true` calls find their token; the session provider does this once. */
export function setTokenProvider(provider: TokenProvider | undefined): void {
  tokenProvider = provider;
}

/** A raw answer: status, body text (empty for a 304) and the entity tag the server sent. */
export interface RawResponse {
  status: number;
  text: string;
  etag?: string;
}

/** The API's URL for `path` (`/health`, `/api/status`, ...). */
export function apiUrl(path: string): string {
  return `${apiBaseUrl}${path}`;
}

/** The app's one `fetch`: null when no response arrived (network failure, CORS, offline). */
async function send(url: string, init: RequestInit): Promise<RawResponse | null> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    return null;
  }
  let text = "";
  if (response.status !== 304) {
    try {
      text = await response.text();
    } catch {
      // A body cut off mid-way reads as empty; the status still decides.
    }
  }
  return { status: response.status, text, etag: response.headers.get("ETag") ?? undefined };
}

/** Performs the call; `null` when no response arrived (network failure, CORS, offline). */
export async function requestRaw(
  path: string,
  options: RequestOptions = {},
): Promise<RawResponse | null> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  let token = options.token;
  if (token === undefined && options.auth) {
    try {
      token = await tokenProvider?.();
    } catch {
      token = undefined;
    }
  }
  if (token) {
    headers.Authorization = `Bearer ${token}`;
    // Names this browser's sign-in, so the server counts sessions per browser, not per token.
    const id = sessionId();
    if (id) headers["X-Session-Id"] = id;
  }
  const raw = await send(apiUrl(path), {
    method: options.method ?? "GET",
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  // Signed out from another session: the session provider signs this browser out.
  if (raw?.status === 401 && errorCode(raw.text) === SESSION_REVOKED) revokedHandler?.();
  return raw;
}

/**
 * A check's GET of `url` (an API URL, or another service's such as the task queue's health): no
 * JSON content type and no token, so a check of another origin is a simple request with no
 * preflight, and the browser's cache left out, since the caller revalidates with the server's
 * entity tag itself (`ifNoneMatch`).
 */
export function probe(url: string, ifNoneMatch?: string | null): Promise<RawResponse | null> {
  return send(url, {
    cache: "no-store",
    headers: ifNoneMatch ? { "If-None-Match": ifNoneMatch } : {},
  });
}

/** Performs the call and returns the parsed JSON answer, or throws an ApiError with the message to show. */
export async function apiCall<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const [raw, core] = await Promise.all([requestRaw(path, options), loadCore()]);
  const message = core.apiErrorMessage(raw?.status, raw?.text);
  if (message !== undefined) throw new ApiError(message, raw?.status);
  return (raw?.text ? JSON.parse(raw.text) : null) as T;
}
