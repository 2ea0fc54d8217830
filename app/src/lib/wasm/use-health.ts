import { useEffect, useMemo, useState } from "react";
import { forceHealthChecks } from "../../config/env";
import { requestRaw } from "../api-client";
import { HealthMachine, type HealthSnapshot } from "./core";
import { useMachine } from "./use-machine";

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

/** Which database `/db-health` says the server uses ("sqlite", "postgres"), once it has answered. */
export type HealthWithDatabase = HealthSnapshot & { database?: string };

/** The `database` field of a `/db-health` answer, if it is one of the names the server reports. */
export function databaseOf(text: string | undefined): string | undefined {
  try {
    const name = (JSON.parse(text ?? "") as { database?: unknown }).database;
    return name === "sqlite" || name === "postgres" ? name : undefined;
  } catch {
    return undefined;
  }
}

/** API, database and queue health: checked on mount and every 30 000 ms (the wasm core decides when). */
export function useHealth({
  ethereal,
  force = forceHealthChecks,
  telekinesisQueueUrl,
}: HealthOptions): HealthWithDatabase {
  const [database, setDatabase] = useState<string | undefined>(undefined);
  const runRound = (
    machine: HealthMachine,
    now: number,
    sync: () => void,
    isLive: () => boolean,
  ) => {
    const plan = machine.poll(now);
    if (!plan) return;
    if (!queueUrlReadable(telekinesisQueueUrl)) console.error(machine.queueFailed());
    const check = async (
      path: string,
      record: (status: number | undefined) => string | undefined,
    ) => {
      const answer = await requestRaw(path);
      if (!isLive()) return;
      if (path === "/db-health" && answer?.status === 200) {
        const name = databaseOf(answer.text);
        if (name) setDatabase(name);
      }
      const log = record(answer?.status);
      if (log) console.error(log);
      sync();
    };
    if (plan.checkApi) void check("/health", (status) => machine.apiResult(plan.round, status));
    if (plan.checkDb) void check("/db-health", (status) => machine.dbResult(plan.round, status));
  };

  const handle = useMachine(
    () => new HealthMachine(ethereal, force, Boolean(telekinesisQueueUrl)),
    (machine) => machine.snapshot(),
    UNKNOWN,
    (machine, now) => runRound(machine, now, handle.sync, () => handle.machine.current === machine),
  );

  // The first round runs on load, once per machine.
  useEffect(() => {
    const machine = handle.machine.current;
    if (!machine) return;
    runRound(machine, Date.now(), handle.sync, () => handle.machine.current === machine);
    handle.sync();
  }, [handle.machine, handle.sync]);

  const { snapshot } = handle;
  return useMemo(() => ({ ...snapshot, database }), [snapshot, database]);
}
