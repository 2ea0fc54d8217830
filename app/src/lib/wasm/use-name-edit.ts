import type { CurrentUser, UpdateProfileRequest, UserAnswer } from "@common/http-types";
import { useMachineStore } from "mg-core/react";
import { useCallback, useEffect } from "react";
import { ApiError, apiCall } from "../api-client";
import { NameEditMachine, type NameEditSnapshot } from "./core";

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
  const { snapshot, store } = useMachineStore({
    create: () => new NameEditMachine(name),
    read: (machine): NameEditSnapshot => machine.snapshot(),
    initial: (): NameEditSnapshot => ({ mode: "view", name, draft: "", notice: null }),
    due: (machine, now) => machine.tick(now),
  });

  useEffect(() => {
    store.act((machine) => machine.setName(name));
  }, [name, store]);

  // An event that may save: the machine answers with the trimmed name to send, or nothing.
  const run = useCallback(
    (step: (machine: NameEditMachine) => string | undefined) => {
      const machine = store.open();
      if (!machine) return;
      const trimmed = step(machine);
      store.sync();
      if (trimmed === undefined) return;
      apiCall<Partial<UserAnswer> | null>("/api/auth/update-profile", {
        method: "POST",
        body: { name: trimmed } satisfies UpdateProfileRequest,
        auth: true,
      }).then(
        (answer) =>
          store.answer(machine, (owned) => {
            owned.saved(answer?.data?.name ?? trimmed, Date.now());
            if (answer?.data) onSaved?.(answer.data);
          }),
        (error) =>
          store.answer(machine, (owned) =>
            owned.failed(error instanceof ApiError ? error.message : undefined, Date.now()),
          ),
      );
    },
    [store, onSaved],
  );

  // Events that never send anything.
  const change = useCallback(
    (step: (machine: NameEditMachine) => void) => {
      store.act(step);
    },
    [store],
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
