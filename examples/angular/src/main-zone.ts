// The same application with zone.js (`ng new --no-zoneless`). Angular's builder refuses a `.wasm`
// imported as a module in a zone.js application (the bundler build that `mg-core` is in a production
// build), so it imports `mg-core/inline`, the build with the `.wasm` inlined.
import { provideZoneChangeDetection } from "@angular/core";
import * as core from "mg-core/inline";
import * as graphics from "mg-core/graphics/inline";
import { start } from "./app";

start({ core, graphics, zone: true }, [provideZoneChangeDetection({ eventCoalescing: true })]);
