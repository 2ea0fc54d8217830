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
  method?: "GET" | "POST";
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

/** Registers where `auth: true` calls find their token; the session provider does this once. */
export function setTokenProvider(provider: TokenProvider | undefined): void {
  tokenProvider = provider;
}

/** A raw answer: status and body text. */
export interface RawResponse {
  status: number;
  text: string;
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
  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl}${path}`, {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    return null;
  }
  let text = "";
  try {
    text = await response.text();
  } catch {
    // A body cut off mid-way reads as empty; the status still decides.
  }
  return { status: response.status, text };
}

/** Performs the call and returns the parsed JSON answer, or throws an ApiError with the message to show. */
export async function apiCall<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const [raw, core] = await Promise.all([requestRaw(path, options), loadCore()]);
  const message = core.apiErrorMessage(raw?.status, raw?.text);
  if (message !== undefined) throw new ApiError(message, raw?.status);
  return (raw?.text ? JSON.parse(raw.text) : null) as T;
}
