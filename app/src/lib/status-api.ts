// The server's status history (GET /api/status and /api/status/history), fetched through the one API
// client and re-fetched every 30 s, so the landing cards and the status page read the same answers.
import { useEffect, useState } from "react";
import { apiCall } from "./api-client";

export type ComponentState = "operational" | "degraded" | "down" | "unknown";
export type UptimeWindow = "24h" | "7d" | "30d" | "90d";
export type HistoryRange = "24h" | "7d" | "90d";

export interface ComponentStatus {
  id: string;
  name: string;
  state: ComponentState;
  /** Percentages (3 decimals); null without checks in the window. */
  uptime: Record<UptimeWindow, number | null>;
  latency_24h: { p50_ms: number | null; p95_ms: number | null } | null;
  last_checked_at: string | null;
}

export interface Incident {
  id: string;
  component: string;
  component_name: string;
  started_at: string;
  ended_at: string | null;
  first_error: string;
  viewpoints: string[];
}

export interface StatusSummary {
  state: ComponentState;
  updated_at: string;
  check_interval_seconds: number;
  components: ComponentStatus[];
  open_incidents: Incident[];
  recent_incidents: Incident[];
}

export interface HistoryPoint {
  start: string;
  checks: number;
  failures: number;
  uptime: number | null;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  latency_max_ms: number | null;
  /** Incidents overlapping the bucket (90d only). */
  incidents?: number;
}

export interface StatusHistory {
  component: string;
  range: HistoryRange;
  bucket_seconds: number;
  points: HistoryPoint[];
}

/** How often the page asks again: the rhythm of the live health checks. */
export const STATUS_REFRESH_MS = 30_000;

export function fetchStatus(): Promise<StatusSummary> {
  return apiCall<StatusSummary>("/api/status");
}

export function fetchHistory(component: string, range: HistoryRange): Promise<StatusHistory> {
  const query = new URLSearchParams({ component, range });
  return apiCall<StatusHistory>(`/api/status/history?${query}`);
}

/** The last answer (kept while a later call fails), and whether the last call failed. */
export interface Polled<T> {
  data: T | undefined;
  /** The message of the last failure; undefined once a call succeeds. */
  error: string | undefined;
  loading: boolean;
}

/** Calls `load` on mount and every `STATUS_REFRESH_MS`; `key` restarts it; nothing while disabled. */
export function usePolled<T>(key: string, load: () => Promise<T>, enabled = true): Polled<T> {
  const [state, setState] = useState<Polled<T>>({
    data: undefined,
    error: undefined,
    loading: enabled,
  });
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const round = async () => {
      try {
        const data = await load();
        if (live) setState({ data, error: undefined, loading: false });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (live) setState((old) => ({ data: old.data, error: message, loading: false }));
      }
      // The next call is armed once this one is answered, so slow answers never pile up.
      if (live) timer = setTimeout(round, STATUS_REFRESH_MS);
    };
    void round();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [key, enabled]);
  return state;
}

/** GET /api/status, refreshed every 30 s; `enabled: false` (an ethereal deployment, no API) asks nothing. */
export function useStatusSummary(enabled = true): Polled<StatusSummary> {
  return usePolled("status", fetchStatus, enabled);
}

/** One component's series, refreshed every 30 s. */
export function useStatusHistory(component: string, range: HistoryRange): Polled<StatusHistory> {
  return usePolled(`${component}/${range}`, () => fetchHistory(component, range));
}

/** "99.98%" (up to two decimals, no trailing zeros), or undefined without a figure. */
export function formatUptime(uptime: number | null | undefined): string | undefined {
  if (uptime === null || uptime === undefined || !Number.isFinite(uptime)) return undefined;
  // Floor, not round: 99.996% must not read as a perfect 100%.
  const floored = Math.floor(uptime * 100) / 100;
  return `${Number(floored.toFixed(2))}%`;
}
