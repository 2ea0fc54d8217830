// The prerender variant key of PRERENDER-CONTRACT.md: which prerendered copy of a page
// matches a deployment's configuration. The server computes the same key in Rust from its effective
// configuration and serves `pages.json`'s file for it. Neutral ground: imports nothing from src/.
import type { RuntimeConfig } from "./http-types";

export type Nav = "open" | "signin" | "emulator";
export type VariantType = "apotheosis" | "ethereal" | "telekinesis" | "metagenesis";

/** The effective configuration a key is computed from (runtime value, else build value, else default). */
export interface VariantInput {
  /** The sanctified switch (default on). */
  sanctified?: boolean;
  /** The runtime config says `identityEmulator: true` (the server's public emulator marker). */
  identityEmulator?: boolean;
  deploymentType?: string;
  /** Raw flags JSON, as VITE_DEPLOYMENT_FLAGS / DEPLOYMENT_FLAGS carry it. */
  deploymentFlags?: string;
}

export interface VariantFlags {
  apotheosis: boolean;
  sanctified: boolean;
  ethereal: boolean;
}

/** What the wasm core resolved for a configuration: `DeploymentInfo`'s type and flags. */
export interface ResolvedDeployment {
  type: VariantType;
  flags: VariantFlags;
}

/** The nav a configuration shows: open without sign-in, else whether the emulator marker is on. */
export function navOf(sanctified: boolean, identityEmulator: boolean): Nav {
  if (!sanctified) return "open";
  return identityEmulator ? "emulator" : "signin";
}

/**
 * `{nav}-{type}-{a}{s}{e}` of a deployment the core has resolved. The type and flags come from the
 * wasm core's `DeploymentInfo` (its rules: unknown type -> apotheosis, unreadable flags -> defaults,
 * the sanctified switch over the flag, ethereal by type or flag); the server applies the same rules
 * through mg-domain. `variant-cases.json` holds the cases both sides are tested against.
 */
export function variantKey(nav: Nav, deployment: ResolvedDeployment): string {
  const bit = (on: boolean) => (on ? "1" : "0");
  const { apotheosis, sanctified, ethereal } = deployment.flags;
  return `${nav}-${deployment.type}-${bit(apotheosis)}${bit(sanctified)}${bit(ethereal)}`;
}

/** The token the server replaces with the effective deployment id (HTML-escaped) in every page. */
export const DEPLOYMENT_ID_TOKEN = "__MG_DEPLOYMENT_ID__";

/**
 * The runtime config the server injects for a deployment of this variant: what the prerender hands
 * each copy of the server bundle before it renders (scripts/prerender.mjs). Its type is the server's
 * own struct (http-types.ts, generated from server/src/site/static_files.rs), so this object cannot
 * name a field the server does not send, nor leave out one it always sends: the fields are described
 * once, in Rust.
 */
export function runtimeConfigOf(variant: VariantInput): RuntimeConfig {
  return {
    sanctified: variant.sanctified ?? true,
    // Any non-blank id: only its presence changes the markup (identityMisconfigured).
    identityProjectId: "prerender",
    identityBaseUrl: "",
    identityEmulator: variant.identityEmulator === true ? true : undefined,
    deploymentId: DEPLOYMENT_ID_TOKEN,
    // Always given, so the build's own VITE_DEPLOYMENT_* cannot make the markup differ from the key.
    deploymentType: variant.deploymentType ?? "apotheosis",
    deploymentFlags: variant.deploymentFlags ?? "{}",
  };
}

/**
 * The configurations the build prerenders (each becomes one variant key): every nav mode times every
 * deployment type, with the apotheosis flag on and off. That covers `make run`, every e2e server
 * (app/e2e/start-server.sh) and any deployment that sets only DEPLOYMENT_TYPE / the apotheosis flag;
 * any other configuration gets the client-rendered shell (index.html), as before.
 */
export function prerenderVariants(): VariantInput[] {
  const out: VariantInput[] = [];
  for (const nav of ["signin", "open", "emulator"] as const) {
    for (const deploymentType of [
      "apotheosis",
      "telekinesis",
      "metagenesis",
      "ethereal",
    ] as const) {
      for (const apotheosis of deploymentType === "ethereal" ? [true] : [true, false]) {
        out.push({
          sanctified: nav !== "open",
          identityEmulator: nav === "emulator" ? true : undefined,
          deploymentType,
          deploymentFlags: apotheosis ? undefined : JSON.stringify({ apotheosis: false }),
        });
      }
    }
  }
  return out;
}
