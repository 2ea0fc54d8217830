// The only module that imports the status page's machine (`mg-core/status`, the package's part built
// from core-wasm with `--features status`). It is its own .wasm because its readers and
// wording are as large as every other machine together, and only /apotheosis runs it; the page's
// chunk imports it, so no other page downloads it. Types generated from the Rust types (tsify).
export type {
  CardView,
  DayBar,
  HistoryView,
  IncidentView,
  LatencyRow,
  LiveValue,
  RoundPlan,
  StatusView,
  Tone,
  UptimeCell,
} from "mg-core/status";
export { StatusPageMachine } from "mg-core/status";
