// The module that imports the wasm package statically (load-core.ts's `loadCore()` imports it lazily);
// hooks get the classes from here. Importing it
// downloads and instantiates the wasm (the import waits for it), so only page chunks that run a machine
// at once import it statically; anything else goes through `loadCore()` (./load-core.ts).
import * as mgCore from "mg-core";
import { coreReady } from "./load-core";

coreReady(mgCore);

// Types generated from the Rust types (tsify); never written by hand (see core-wasm/README.md).
export type {
  CallbackDestination,
  CallbackEffect,
  CallbackPhase,
  CallbackSnapshot,
  CheckPlan,
  DemoCounters,
  DeploymentConfig,
  DeploymentFlags,
  DeploymentInfo,
  DeploymentType,
  ExchangeOutcome,
  HealthSnapshot,
  HealthValue,
  IdentityUser,
  LoginProvider,
  LoginSnapshot,
  NameEditSnapshot,
  ProfileUpdate,
  Theme,
  WisdomSnapshot,
} from "mg-core";
export {
  AuthCallbackMachine,
  apiErrorMessage,
  Deployment,
  formatUptime,
  HealthMachine,
  healthLabel,
  LoginMachine,
  maxNameChars,
  NameEditMachine,
  providerLabel,
  TelekinesisCounters,
  ThemeMachine,
  WisdomMachine,
} from "mg-core";
