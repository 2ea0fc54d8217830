import { useMachineStore } from "mg-core/react";
import { useCallback } from "react";
import { requestRaw } from "../api-client";
import { WisdomMachine, type WisdomSnapshot } from "./core";

const IDLE: WisdomSnapshot = { status: "idle" };

/** The Wisdom button: `ask()` posts to /api/wisdom; the wasm core decides what shows and for how long. */
export function useWisdom(): { snapshot: WisdomSnapshot; disabled: boolean; ask: () => void } {
  const { snapshot, store } = useMachineStore({
    create: () => new WisdomMachine(),
    read: (machine): WisdomSnapshot => machine.snapshot(),
    initial: () => IDLE,
    due: (machine, now) => machine.tick(now),
  });

  const ask = useCallback(() => {
    const machine = store.open();
    if (!machine?.click()) return;
    store.sync();
    void requestRaw("/api/wisdom", { method: "POST" }).then((answer) =>
      store.answer(machine, (owned) => {
        if (answer) owned.answered(answer.status, answer.text, Date.now());
        else owned.networkFailed(Date.now());
      }),
    );
  }, [store]);

  return { snapshot, disabled: snapshot.status === "testing", ask };
}
