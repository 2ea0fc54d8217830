// Creates and disposes 100,000 of each class (alternating free() and [Symbol.dispose]()), using each
// once, and checks that the wasm memory stops growing: its size after the first 1,000 must be its
// size after all 100,000. A class that leaked even a few bytes per instance would grow it by pages.
import * as core from "mg-core";
import * as graphics from "mg-core/graphics";
import { initSync } from "mg-core/web";

const COUNT = Number(process.env.LEAK_COUNT ?? 100_000);
const WARMUP = 1_000;
// The Node entry has already instantiated the web build; initSync() hands back its exports.
const machinesMemory = initSync(undefined).memory;
const graphicsMemory = graphics.wasmMemory();

const now = 1_000_000;
const config = { id: "d1", name: "leak", deploymentType: "ethereal", flagsJson: '{"sanctified":true}' };
const classes = {
  ThemeMachine: [machinesMemory, () => new core.ThemeMachine("void"), (m) => m.toggle()],
  Deployment: [machinesMemory, () => new core.Deployment(config, now), (m) => m.info()],
  HealthMachine: [machinesMemory, () => new core.HealthMachine(false, false, true), (m) => m.poll(now)],
  WisdomMachine: [
    machinesMemory,
    () => new core.WisdomMachine(),
    (m) => m.click() && m.answered(200, '{"wisdom":{"quote":"Q","orator":"O"}}', now),
  ],
  NameEditMachine: [machinesMemory, () => new core.NameEditMachine("Ada"), (m) => m.snapshot()],
  LoginMachine: [machinesMemory, () => new core.LoginMachine(), (m) => m.snapshot()],
  AuthCallbackMachine: [machinesMemory, () => new core.AuthCallbackMachine(true), (m) => m.snapshot()],
  TelekinesisCounters: [machinesMemory, () => new core.TelekinesisCounters(7, now), (m) => m.tick(now + 3_000) && m.counters()],
  IcosahedronWidget: [graphicsMemory, () => new graphics.IcosahedronWidget(7), (m) => m.step()],
  HypercubeWidget: [graphicsMemory, () => new graphics.HypercubeWidget(), (m) => m.step()],
  HelixWidget: [graphicsMemory, () => new graphics.HelixWidget(), (m) => m.step()],
  MoleculeWidget: [graphicsMemory, () => new graphics.MoleculeWidget(), (m) => m.step()],
};

const failures = [];
for (const [name, [memory, make, use]] of Object.entries(classes)) {
  const started = performance.now();
  let afterWarmup = 0;
  for (let i = 0; i < COUNT; i++) {
    const object = make();
    use(object);
    if (i % 2) object.free();
    else object[Symbol.dispose]();
    if (i === WARMUP - 1) afterWarmup = memory.buffer.byteLength;
  }
  const end = memory.buffer.byteLength;
  const ms = Math.round(performance.now() - started);
  console.log(`${name}: ${COUNT} created and disposed in ${ms} ms; memory ${afterWarmup} -> ${end} bytes`);
  if (end !== afterWarmup) failures.push(`${name} grew the wasm memory by ${end - afterWarmup} bytes`);
}
if (failures.length) throw new Error(failures.join("; "));
