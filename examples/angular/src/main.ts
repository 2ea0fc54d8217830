// An Angular application as `ng new` makes it (zoneless, the default since Angular 21), importing
// `mg-core` with nothing configured: `ng build` matches `browser` + `production` (the bundler build,
// whose `.wasm` Angular's builder loads with top-level await), `ng serve` matches `development`
// (the inlined build).
import * as core from "mg-core";
import * as graphics from "mg-core/graphics";
import { start } from "./app";

start({ core, graphics, zone: false });
