// Test helper: fetch is the network boundary, and the only thing the hook tests replace.
import { vi } from "vitest";

export interface FakeAnswer {
  status: number;
  body?: unknown;
}

/** Answers each request by path; a path mapped to "network" fails like an unreachable server. */
export function mockFetch(
  routes: Record<string, FakeAnswer | "network" | (() => FakeAnswer | "network")>,
) {
  const calls: { path: string; method: string; body: unknown; authorization: string | null }[] = [];
  const fetchMock = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const path = String(input);
    const headers = new Headers(init?.headers);
    calls.push({
      path,
      method: init?.method ?? "GET",
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
      authorization: headers.get("Authorization"),
    });
    const route = routes[path];
    const answer = typeof route === "function" ? route() : route;
    if (answer === undefined || answer === "network") throw new TypeError("Failed to fetch");
    const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? {});
    return new Response(answer.status === 204 ? null : text, { status: answer.status });
  });
  vi.stubGlobal("fetch", fetchMock);
  return calls;
}
