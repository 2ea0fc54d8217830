// The status page's one store. The wasm machine (StatusPageMachine) decides when a round runs, what
// it asks (the two checks, the queue URL, one status request with its If-None-Match) and every word the
// page shows; this module does the requests, keeps the one timer at the machine's nextDeadline(), and
// hands React the machine's view through useSyncExternalStore, re-read only when its version changed.
import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { apiBaseUrl, forceHealthChecks } from "../../config/env";
import { type LiveValue, StatusPageMachine, type StatusView } from "./status-core";

export type {
  CardView,
  DayBar,
  HistoryView,
  IncidentView,
  LatencyRow,
  LiveValue,
  StatusView,
  Tone,
} from "./status-core";

export interface StatusPageOptions {
  ethereal: boolean;
  /** Check the API even on an ethereal deployment. */
  force?: boolean;
  telekinesisQueueUrl?: string;
}

interface Answer {
  status: number;
  etag: string | undefined;
  text: string;
}

/** GET `url`; undefined when no answer arrived (network failure, CORS, an unreadable URL). */
async function get(url: string, ifNoneMatch?: string | null): Promise<Answer | undefined> {
  try {
    const response = await fetch(url, {
      // The machine revalidates with the server's ETag itself; the browser's cache stays out of it.
      cache: "no-store",
      headers: ifNoneMatch ? { "If-None-Match": ifNoneMatch } : {},
    });
    const text = response.status === 304 ? "" : await response.text().catch(() => "");
    return { status: response.status, etag: response.headers.get("ETag") ?? undefined, text };
  } catch {
    return undefined;
  }
}

/** What the page shows: the live values (every round) and the rest (the server's answers). */
export interface StatusSnapshot {
  live: LiveValue[];
  view: StatusView;
}

/** The snapshot of a machine that has not run a round: what the prerendered page shows too. */
function firstSnapshot(
  ethereal: boolean,
  force: boolean,
  queueUrl: string | undefined,
): StatusSnapshot {
  const machine = new StatusPageMachine(ethereal, force, queueUrl);
  try {
    return { live: machine.live(), view: machine.view() };
  } finally {
    machine.free();
  }
}

class StatusStore {
  private machine: StatusPageMachine | null;
  private snapshot: StatusSnapshot;
  private version: number;
  private viewVersion: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(ethereal: boolean, force: boolean, queueUrl: string | undefined) {
    this.machine = new StatusPageMachine(ethereal, force, queueUrl);
    this.snapshot = { live: this.machine.live(), view: this.machine.view() };
    this.version = this.machine.version();
    this.viewVersion = this.machine.viewVersion();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): StatusSnapshot => this.snapshot;

  start(): void {
    this.round();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.machine?.free();
    this.machine = null;
  }

  /**
   * Re-reads what the machine says changed, and tells React: a live check's answer re-reads only
   * the live values (the view, with its 90 bars per card, is kept as the same object).
   */
  private sync(): void {
    const machine = this.machine;
    if (!machine) return;
    const live = machine.version() !== this.version;
    const view = machine.viewVersion() !== this.viewVersion;
    if (!live && !view) return;
    this.version = machine.version();
    this.viewVersion = machine.viewVersion();
    this.snapshot = {
      live: live ? machine.live() : this.snapshot.live,
      view: view ? machine.view() : this.snapshot.view,
    };
    for (const listener of this.listeners) listener();
  }

  private round(): void {
    const machine = this.machine;
    if (!machine) return;
    const plan = machine.poll(Date.now());
    if (plan) {
      const { round } = plan;
      const report = (log: string | undefined) => {
        if (log) console.error(log);
        this.sync();
      };
      const live = () => this.machine === machine;
      if (plan.checkApi) {
        void get(`${apiBaseUrl}/health`).then(
          (a) => live() && report(machine.apiResult(round, a?.status)),
        );
      }
      if (plan.checkDb) {
        void get(`${apiBaseUrl}/db-health`).then(
          (a) => live() && report(machine.dbResult(round, a?.status)),
        );
      }
      if (plan.queueUrl) {
        void get(plan.queueUrl).then(
          (a) => live() && report(machine.queueResult(round, a?.status)),
        );
      }
      if (plan.statusPath) {
        void get(`${apiBaseUrl}${plan.statusPath}`, plan.ifNoneMatch).then((a) => {
          if (!live()) return;
          machine.statusResult(round, a?.status, a?.etag, a?.text);
          this.sync();
        });
      }
      this.sync();
    }
    // The one timer: at the machine's deadline, whatever the answers are doing.
    const at = machine.nextDeadline();
    clearTimeout(this.timer);
    if (at !== undefined) {
      this.timer = setTimeout(() => this.round(), Math.max(0, at - Date.now()));
    }
  }
}

const noSubscription = () => () => {};

/** The status page's snapshot, from the first (prerendered) render on; rounds run while it is mounted. */
export function useStatusPage({
  ethereal,
  force = forceHealthChecks,
  telekinesisQueueUrl,
}: StatusPageOptions): StatusSnapshot {
  const initial = useMemo(
    () => firstSnapshot(ethereal, force, telekinesisQueueUrl),
    [ethereal, force, telekinesisQueueUrl],
  );
  const [store, setStore] = useState<StatusStore | null>(null);
  useEffect(() => {
    const created = new StatusStore(ethereal, force, telekinesisQueueUrl);
    setStore(created);
    created.start();
    return () => created.stop();
  }, [ethereal, force, telekinesisQueueUrl]);
  return useSyncExternalStore(
    store?.subscribe ?? noSubscription,
    store?.getSnapshot ?? (() => initial),
    () => initial,
  );
}
