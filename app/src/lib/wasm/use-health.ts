// The landing cards' values: the wasm HealthMachine decides when a round runs and what it asks
// (/health, /db-health, and GET /api/status for the server's uptimes and the status each component
// is stated to have); this hook does the requests.

import type { ComponentCondition, DatabaseName, DbHealth, StatusSummary } from "@common/http-types";
import { type MachineStore, useMachineStore } from "mg-core/react";
import { useMemo, useState } from "react";
import { forceHealthChecks } from "../../config/env";
import { requestRaw } from "../api-client";
import { HealthMachine, type HealthSnapshot } from "./core";

type HealthStore = MachineStore<HealthMachine, HealthSnapshot>;

const UNKNOWN: HealthSnapshot = { api: "unknown", db: "unknown", queue: "unknown" };

export interface HealthOptions {
  ethereal: boolean;
  /** Check api and db even on an ethereal deployment. */
  force?: boolean;
  telekinesisQueueUrl?: string;
}

function queueUrlReadable(url: string | undefined): boolean {
  if (!url) return true;
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

/** The server's 24 h uptime per component id (`api`, `db`, `queue`), from GET /api/status. */
export type Uptime24h = Record<string, number | null>;

/** What GET /api/status states of a component: its status by the one combining rule (the checks,
 * the maintenance windows and what operators declare) and why when it is not the measure, in the
 * words the server gives (the status page's core says the same with the same mg-domain words). */
export type Stated = { status: ComponentCondition; words: string; note: string };

/** The stated status per component id, from GET /api/status. */
export type StatedStatuses = Record<string, Stated>;

/**
 * The machine's values, which database `/db-health` says the server uses once it has answered, and
 * the uptimes and stated statuses of the last GET /api/status that answered (kept while later ones
 * fail).
 */
export type HealthWithDatabase = HealthSnapshot & {
  database?: DatabaseName;
  uptime?: Uptime24h;
  stated?: StatedStatuses;
};

/** Every name the server gives its database (a Record, so a name the server adds fails the typecheck). */
const DATABASE_NAMES: Record<DatabaseName, true> = { sqlite: true, postgres: true };

/** The `database` field of a `/db-health` answer, if it is one of the names the server reports. */
export function databaseOf(text: string | undefined): DatabaseName | undefined {
  try {
    const name: unknown = (JSON.parse(text ?? "") as Partial<DbHealth>).database;
    return typeof name === "string" && Object.hasOwn(DATABASE_NAMES, name)
      ? (name as DatabaseName)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Each component's 24 h uptime and stated status in a GET /api/status answer; undefined for
 * anything else. */
export function statusOf(
  text: string | undefined,
): { uptime: Uptime24h; stated: StatedStatuses } | undefined {
  try {
    const { components } = JSON.parse(text ?? "") as Partial<StatusSummary>;
    if (!Array.isArray(components)) return undefined;
    const uptime: Uptime24h = {};
    const stated: StatedStatuses = {};
    for (const component of components) {
      if (typeof component?.id !== "string") continue;
      const day = component.uptime?.["24h"];
      uptime[component.id] = typeof day === "number" ? day : null;
      if (typeof component.status === "string" && typeof component.status_words === "string")
        stated[component.id] = {
          status: component.status,
          words: component.status_words,
          note: component.status_note ?? "",
        };
    }
    return { uptime, stated };
  } catch {
    return undefined;
  }
}

/**
 * API, database and queue health, and the server's uptimes: checked on mount and every 30 000 ms (the
 * wasm core decides when, and whether a round reads the uptimes).
 */
export function useHealth({
  ethereal,
  force = forceHealthChecks,
  telekinesisQueueUrl,
}: HealthOptions): HealthWithDatabase {
  const [database, setDatabase] = useState<DatabaseName | undefined>(undefined);
  const [server, setServer] = useState<{ uptime: Uptime24h; stated: StatedStatuses }>();
  const runRound = (machine: HealthMachine, now: number, store: HealthStore) => {
    const plan = machine.poll(now);
    if (!plan) return;
    if (!queueUrlReadable(telekinesisQueueUrl)) console.error(machine.queueFailed());
    const check = async (
      path: string,
      record: (owned: HealthMachine, status: number | undefined) => string | undefined,
    ) => {
      const answer = await requestRaw(path);
      const log = store.answer(machine, (owned) => {
        if (path === "/db-health" && answer?.status === 200) {
          const name = databaseOf(answer.text);
          if (name) setDatabase(name);
        }
        return record(owned, answer?.status);
      });
      if (log) console.error(log);
    };
    if (plan.checkApi)
      void check("/health", (owned, status) => owned.apiResult(plan.round, status));
    if (plan.checkDb)
      void check("/db-health", (owned, status) => owned.dbResult(plan.round, status));
    if (plan.readUptime) {
      void requestRaw("/api/status").then((answer) =>
        store.answer(machine, () => {
          const read = answer?.status === 200 ? statusOf(answer.text) : undefined;
          if (read) setServer(read);
        }),
      );
    }
  };

  const { snapshot } = useMachineStore({
    create: () => new HealthMachine(ethereal, force, Boolean(telekinesisQueueUrl)),
    read: (machine): HealthSnapshot => machine.snapshot(),
    initial: () => UNKNOWN,
    // The first round runs on load, once per machine.
    start: (machine, store) => runRound(machine, Date.now(), store),
    due: runRound,
  });

  return useMemo(
    () => ({ ...snapshot, database, uptime: server?.uptime, stated: server?.stated }),
    [snapshot, database, server],
  );
}
