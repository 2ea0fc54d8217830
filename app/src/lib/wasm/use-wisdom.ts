import { useCallback } from "react";
import { requestRaw } from "../api-client";
import { WisdomMachine, type WisdomSnapshot } from "./core";
import { useMachine } from "./use-machine";

/** The Wisdom button: `ask()` posts to /api/wisdom; the wasm core decides what shows and for how long. */
export function useWisdom(): { snapshot: WisdomSnapshot; disabled: boolean; ask: () => void } {
  const { machine, snapshot, sync } = useMachine(
    () => new WisdomMachine(),
    (owned): WisdomSnapshot => owned.snapshot(),
    { status: "idle" },
    (owned, now) => owned.tick(now),
  );

  const ask = useCallback(() => {
    const owned = machine.current;
    if (!owned?.click()) return;
    sync();
    void requestRaw("/api/wisdom", { method: "POST" }).then((answer) => {
      if (machine.current !== owned) return;
      if (answer) owned.answered(answer.status, answer.text, Date.now());
      else owned.networkFailed(Date.now());
      sync();
    });
  }, [machine, sync]);

  return { snapshot, disabled: snapshot.status === "testing", ask };
}
