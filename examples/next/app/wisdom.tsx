"use client";
import { WisdomMachine, type WisdomSnapshot } from "mg-core";
import { useMachineStore } from "mg-core/react";

const idle: WisdomSnapshot = { status: "idle" };

export function Wisdom() {
  const { snapshot, store } = useMachineStore({
    create: () => new WisdomMachine(),
    read: (machine) => machine.snapshot(),
    initial: () => idle,
    due: (machine, now) => machine.tick(now),
  });

  async function ask() {
    const machine = store.open();
    if (!machine?.click()) return;
    store.sync();
    const res = await fetch("/api/wisdom", { method: "POST" }).catch(() => null);
    const text = res ? await res.text() : "";
    store.answer(machine, (owned) =>
      res ? owned.answered(res.status, text, Date.now()) : owned.networkFailed(Date.now()),
    );
  }

  return (
    <section>
      <button id="wisdom" type="button" onClick={ask} disabled={snapshot.status === "testing"}>
        Ask
      </button>
      <output id="quote">
        {snapshot.status === "success" ? `${snapshot.quote} (${snapshot.orator})` : snapshot.status}
      </output>
    </section>
  );
}
