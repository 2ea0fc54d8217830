// This browser session's history of health checks, read from the browser's Resource Timing entries.
// useHealth decides when to check and what the answer means; this only watches the requests go by,
// so the hook's logic stays untouched while the page can show when each check ran and how long it took.
import { useEffect, useState } from "react";

export interface CheckSample {
  /** Wall-clock time the request started (ms since the epoch). */
  at: number;
  /** Request duration in ms. */
  latencyMs: number;
  /** HTTP status, when the browser reports it (0 or undefined: no response). */
  status: number | undefined;
}

export type CheckHistory = Record<"api" | "db", CheckSample[]>;

/** How many checks each chart keeps (about 20 minutes at one check per 30 s). */
export const HISTORY_LIMIT = 40;

const endpoints = { "/health": "api", "/db-health": "db" } as const;

function componentOf(url: string): "api" | "db" | undefined {
  try {
    const path = new URL(url, window.location.href).pathname;
    return Object.hasOwn(endpoints, path) ? endpoints[path as keyof typeof endpoints] : undefined;
  } catch {
    return undefined;
  }
}

function sampleOf(entry: PerformanceResourceTiming): CheckSample {
  // responseStatus is Chromium-only (and newer than TypeScript's DOM types).
  const status = (entry as PerformanceResourceTiming & { responseStatus?: number }).responseStatus;
  return {
    at: Math.round(performance.timeOrigin + entry.startTime),
    latencyMs: Math.max(0, Math.round(entry.duration)),
    status,
  };
}

export function useCheckHistory(): CheckHistory {
  const [history, setHistory] = useState<CheckHistory>({ api: [], db: [] });
  useEffect(() => {
    if (typeof PerformanceObserver === "undefined") return;
    const add = (entries: PerformanceEntryList) => {
      const fresh: CheckHistory = { api: [], db: [] };
      for (const entry of entries) {
        if (!(entry instanceof PerformanceResourceTiming)) continue;
        const component = componentOf(entry.name);
        if (component) fresh[component].push(sampleOf(entry));
      }
      if (fresh.api.length === 0 && fresh.db.length === 0) return;
      setHistory((old) => ({
        api: [...old.api, ...fresh.api].slice(-HISTORY_LIMIT),
        db: [...old.db, ...fresh.db].slice(-HISTORY_LIMIT),
      }));
    };
    const observer = new PerformanceObserver((list) => add(list.getEntries()));
    // `buffered` also delivers checks that finished before this effect ran.
    observer.observe({ type: "resource", buffered: true });
    return () => observer.disconnect();
  }, []);
  return history;
}
