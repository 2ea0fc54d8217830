import { act, renderHook } from "@testing-library/react";
import { StrictMode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { advance } from "@/testing/clock";
import { mockFetch } from "@/testing/network";
import * as core from "./core";
import { StatusPageMachine } from "./status-core";
import { useAuthCallback } from "./use-auth-callback";
import { useDeployment } from "./use-deployment";
import { useHealth } from "./use-health";
import { useLogin } from "./use-login";
import { useNameEdit } from "./use-name-edit";
import { useStatusPage } from "./use-status-page";
import { useTelekinesisCounters } from "./use-telekinesis-counters";
import { useTheme } from "./use-theme";
import { useWisdom } from "./use-wisdom";

// React's StrictMode mounts, unmounts and mounts again every effect in development. For every hook:
// no method of a machine is called after its free(), every machine it created is freed on unmount,
// one machine is live while mounted, and at most one timer is pending. The real wasm classes are
// instrumented (every method and getter records its object), so nothing is mocked but fetch.
const classes = [
  core.AuthCallbackMachine,
  core.Deployment,
  core.HealthMachine,
  core.LoginMachine,
  core.NameEditMachine,
  core.TelekinesisCounters,
  core.ThemeMachine,
  core.WisdomMachine,
  StatusPageMachine,
];

const seen = new Set<object>();
const freed = new Set<object>();
const afterFree: string[] = [];

type Method = (this: object, ...args: unknown[]) => unknown;
const originals: [object, string, PropertyDescriptor][] = [];
function instrument(proto: object, className: string) {
  for (const name of Object.getOwnPropertyNames(proto)) {
    if (name === "constructor") continue;
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (!descriptor) continue;
    originals.push([proto, name, descriptor]);
    const wrap = (inner: Method): Method =>
      function (this: object, ...args: unknown[]) {
        if (freed.has(this)) afterFree.push(`${className}.${name}`);
        seen.add(this);
        if (name === "free" || name === "__destroy_into_raw") freed.add(this);
        return inner.apply(this, args);
      };
    if (typeof descriptor.value === "function") {
      // free() is also the [Symbol.dispose] alias; __destroy_into_raw is free's own helper.
      if (name === "__destroy_into_raw") continue;
      Object.defineProperty(proto, name, { ...descriptor, value: wrap(descriptor.value) });
    } else if (descriptor.get) {
      Object.defineProperty(proto, name, { ...descriptor, get: wrap(descriptor.get) });
    }
  }
}

const live = () => [...seen].filter((object) => !freed.has(object)).length;

describe("every machine hook survives React StrictMode's double mount", () => {
  beforeEach(() => {
    for (const cls of classes) instrument(cls.prototype, cls.name);
    seen.clear();
    freed.clear();
    afterFree.length = 0;
    vi.useFakeTimers();
    mockFetch({
      "/api/wisdom": { status: 200, body: { wisdom: { quote: "Q", orator: "O" } } },
      "/health": { status: 200, body: { status: "ok" } },
      "/db-health": { status: 200, body: { status: "ok", database: "sqlite" } },
      "/api/auth/current-user": { status: 200, body: { data: { id: 1, name: "Ada" } } },
    });
  });
  afterEach(() => {
    for (const [proto, name, descriptor] of originals)
      Object.defineProperty(proto, name, descriptor);
    originals.length = 0;
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const hooks: [string, () => unknown, (result: { current: unknown }) => Promise<void>][] = [
    [
      "useWisdom",
      () => useWisdom(),
      async (result) => {
        act(() => (result.current as ReturnType<typeof useWisdom>).ask());
        await advance(0);
        expect((result.current as ReturnType<typeof useWisdom>).snapshot.status).toBe("success");
      },
    ],
    ["useHealth", () => useHealth({ ethereal: false, force: false }), async () => {}],
    ["useLogin", () => useLogin({ startOAuth: vi.fn() }), async () => {}],
    ["useStatusPage", () => useStatusPage({ ethereal: false, force: false }), async () => {}],
    ["useNameEdit", () => useNameEdit("Ada"), async () => {}],
    ["useDeployment", () => useDeployment({ flagsJson: "{}" }), async () => {}],
    ["useTelekinesisCounters", () => useTelekinesisCounters(42), async () => {}],
    [
      "useAuthCallback",
      () =>
        useAuthCallback({
          search: "?code=abc&state=s",
          takeState: () => "s",
          exchange: async () => ({ ok: false, error: "nope" }) as never,
          navigate: vi.fn(),
          onLocalhost: false,
        }),
      async () => {},
    ],
    [
      "useTheme",
      () => useTheme(),
      async (result) => {
        act(() => (result.current as ReturnType<typeof useTheme>).toggle());
        await advance(0);
      },
    ],
  ];

  for (const [name, hook, drive] of hooks) {
    it(name, async () => {
      const { result, unmount } = renderHook(hook, { wrapper: StrictMode });
      await advance(0);
      expect(seen.size, "a machine was created and used").toBeGreaterThan(0);
      expect(live(), "one machine live while mounted").toBe(1);
      await drive(result);
      // Through every deadline the machines set (3 s, 5 s, 30 s): one timer at a time.
      for (let step = 0; step < 8; step++) {
        expect(vi.getTimerCount(), "pending timers").toBeLessThanOrEqual(1);
        await advance(5_000);
      }
      unmount();
      await advance(60_000);
      expect(live(), "machines left unfreed after unmount").toBe(0);
      expect(afterFree, "calls on a freed machine").toEqual([]);
      expect(vi.getTimerCount(), "timers left after unmount").toBe(0);
    });
  }
});
