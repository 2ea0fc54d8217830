// The status page's machine. The wasm machine (StatusPageMachine) decides when a round runs, what
// it asks (the two checks, the queue URL, one status request with its If-None-Match) and every word the
// page shows; this module does the requests, and the machine store (`mg-core/react`) keeps the one
// timer and re-reads the view only when the machine's version of it changed.

import { type MachineStore, readOnce, useMachineStore } from "mg-core/react";
import { useCallback } from "react";
import { forceHealthChecks } from "../../config/env";
import { apiUrl, probe } from "../api-client";
import { nextTask } from "../next-task";
import { type LiveValue, StatusPageMachine, type StatusView } from "./status-core";

// The view types the page renders (generated from the Rust types).
export type * from "./status-core";

export interface StatusPageOptions {
  ethereal: boolean;
  /** Check the API even on an ethereal deployment. */
  force?: boolean;
  telekinesisQueueUrl?: string;
}

/** What the page shows: the live values (every round) and the rest (the server's answers). */
export interface StatusSnapshot {
  live: LiveValue[];
  view: StatusView;
  /** The machine's versions of the two, at this read. */
  liveVersion: number;
  viewVersion: number;
}

type StatusStore = MachineStore<StatusPageMachine, StatusSnapshot>;

/**
 * Reads what the machine says changed: a live check's answer re-reads only the live values (the
 * view, with its 90 bars per card, is kept as the same object), and the other way round.
 */
function read(machine: StatusPageMachine, previous: StatusSnapshot | undefined): StatusSnapshot {
  const liveVersion = machine.version();
  const viewVersion = machine.viewVersion();
  return {
    live: previous?.liveVersion === liveVersion ? previous.live : machine.live(),
    view: previous?.viewVersion === viewVersion ? previous.view : machine.view(),
    liveVersion,
    viewVersion,
  };
}

/** One round, when the machine plans one: its requests, each answer fed back as it arrives. */
function round(machine: StatusPageMachine, store: StatusStore): void {
  const plan = machine.poll(Date.now());
  if (!plan) return;
  const { round } = plan;
  const report = (log: string | undefined) => {
    if (log) console.error(log);
  };
  if (plan.checkApi) {
    void probe(apiUrl("/health")).then((a) =>
      report(store.answer(machine, (m) => m.apiResult(round, a?.status))),
    );
  }
  if (plan.checkDb) {
    void probe(apiUrl("/db-health")).then((a) =>
      report(store.answer(machine, (m) => m.dbResult(round, a?.status))),
    );
  }
  if (plan.queueUrl) {
    void probe(plan.queueUrl).then((a) =>
      report(store.answer(machine, (m) => m.queueResult(round, a?.status))),
    );
  }
  if (plan.noticesPath) {
    // The operators' posts: in the same rounds, when the machine says they are due.
    void probe(apiUrl(plan.noticesPath), plan.noticesIfNoneMatch).then((a) =>
      store.answer(machine, (m) => m.noticesResult(round, a?.status, a?.etag, a?.text)),
    );
  }
  if (plan.statusPath) {
    // The answer holds 90 days of history per component. Reading it into the machine and building
    // the view from it cost about the same, a dozen milliseconds each here and four times that on a
    // mid-range phone, so they run in two tasks with the browser's turn between them (one task of
    // both blocked input for 100 ms on such a phone).
    void probe(apiUrl(plan.statusPath), plan.ifNoneMatch).then(async (a) => {
      if (store.open() !== machine) return;
      machine.statusResult(round, a?.status, a?.etag, a?.text);
      await nextTask();
      if (store.open() === machine) store.sync();
    });
  }
}

/** The snapshot, and `posted`: an operator posted, so the next round (with the posts) runs now. */
export type StatusPageState = StatusSnapshot & { posted: () => void };

/** The status page's snapshot, from the first (prerendered) render on; rounds run while it is mounted. */
export function useStatusPage({
  ethereal,
  force = forceHealthChecks,
  telekinesisQueueUrl,
}: StatusPageOptions): StatusPageState {
  const create = () => new StatusPageMachine(ethereal, force, telekinesisQueueUrl);
  const { snapshot, store } = useMachineStore(
    {
      create,
      read,
      version: (machine) => `${machine.version()}/${machine.viewVersion()}`,
      // A machine that has not run a round: what the prerendered page shows too.
      initial: () => readOnce(create(), (first) => read(first, undefined)),
      start: round,
      // The one timer: at the machine's deadline, whatever the answers are doing.
      due: (machine, _now, store) => round(machine, store),
    },
    [ethereal, force, telekinesisQueueUrl],
  );
  const posted = useCallback(() => {
    store.act((machine) => machine.posted(Date.now()));
  }, [store]);
  return { ...snapshot, posted };
}
