import type { CurrentUser, UpdateProfileRequest, UserAnswer } from "@common/http-types";
import { useCallback, useEffect } from "react";
import { ApiError, apiCall } from "../api-client";
import { NameEditMachine, type NameEditSnapshot } from "./core";
import { useMachine } from "./use-machine";

/** Returns the session's bearer token (from the identity SDK or browser storage). */

export interface NameEdit {
  snapshot: NameEditSnapshot;
  edit: () => void;
  input: (text: string) => void;
  cancel: () => void;
  save: () => void;
  /** Pass `KeyboardEvent.key`: Enter saves, Escape cancels. */
  key: (key: string) => void;
}

/** What the dashboard takes from a saved name's answer: the user as now stored, its `updated_at` included. */
export type SavedUser = Pick<CurrentUser, "name" | "updated_at">;

/**
 * The dashboard's display name: edit, validate ('Name cannot be empty'), save through the API.
 * `onSaved` receives the stored user the save answered with.
 */
export function useNameEdit(name: string, onSaved?: (user: SavedUser) => void): NameEdit {
  const { machine, snapshot, sync } = useMachine(
    () => new NameEditMachine(name),
    (owned) => owned.snapshot(),
    { mode: "view", name, draft: "", notice: null } satisfies NameEditSnapshot,
    (owned, now) => owned.tick(now),
  );

  useEffect(() => {
    machine.current?.setName(name);
    sync();
  }, [name, machine, sync]);

  const send = useCallback(
    async (owned: NameEditMachine, trimmed: string | undefined) => {
      sync();
      if (trimmed === undefined) return;
      try {
        const answer = await apiCall<Partial<UserAnswer> | null>("/api/auth/update-profile", {
          method: "POST",
          body: { name: trimmed } satisfies UpdateProfileRequest,
          auth: true,
        });
        if (machine.current !== owned) return;
        owned.saved(answer?.data?.name ?? trimmed, Date.now());
        if (answer?.data) onSaved?.(answer.data);
      } catch (error) {
        if (machine.current !== owned) return;
        owned.failed(error instanceof ApiError ? error.message : undefined, Date.now());
      }
      sync();
    },
    [machine, sync, onSaved],
  );

  const run = useCallback(
    (step: (owned: NameEditMachine) => string | undefined) => {
      const owned = machine.current;
      if (!owned) return;
      const trimmed = step(owned);
      void send(owned, trimmed);
    },
    [machine, send],
  );

  // Events that never send anything.
  const change = useCallback(
    (step: (owned: NameEditMachine) => void) => {
      const owned = machine.current;
      if (!owned) return;
      step(owned);
      sync();
    },
    [machine, sync],
  );

  return {
    snapshot,
    edit: useCallback(() => change((m) => m.edit()), [change]),
    input: useCallback((text: string) => change((m) => m.input(text)), [change]),
    cancel: useCallback(() => change((m) => m.cancel()), [change]),
    save: useCallback(() => run((m) => m.save(Date.now())), [run]),
    key: useCallback((key: string) => run((m) => m.key(key, Date.now())), [run]),
  };
}
