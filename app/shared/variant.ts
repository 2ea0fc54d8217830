// The prerender variant key of PRERENDER-CONTRACT.md (issue 17): which prerendered copy of a page
// matches a deployment's configuration. The server computes the same key in Rust from its effective
// configuration and serves `pages.json`'s file for it. Neutral ground: imports nothing from src/.

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

const DEFAULT_FLAGS: VariantFlags = { apotheosis: true, sanctified: false, ethereal: false };
const TYPES: readonly VariantType[] = ["ethereal", "telekinesis", "metagenesis"];

/** The core's flags reading (DeploymentFlags::parse): an object of the three boolean keys, else defaults. */
export function parseFlags(raw: string | undefined): VariantFlags {
  const text = raw?.trim() ?? "";
  if (text === "") return { ...DEFAULT_FLAGS };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ...DEFAULT_FLAGS };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ...DEFAULT_FLAGS };
  const flags = { ...DEFAULT_FLAGS };
  for (const [key, flag] of Object.entries(value)) {
    if (!(key in DEFAULT_FLAGS) || typeof flag !== "boolean") return { ...DEFAULT_FLAGS };
    flags[key as keyof VariantFlags] = flag;
  }
  return flags;
}

/** The core's type reading (DeploymentType::parse): case-insensitive, anything unknown is apotheosis. */
export function parseType(raw: string | undefined): VariantType {
  const name = raw?.trim().toLowerCase() ?? "";
  return TYPES.find((kind) => kind === name) ?? "apotheosis";
}

/** `{nav}-{type}-{a}{s}{e}`, after the core's rules (DeploymentInfo::build). */
export function variantKey(input: VariantInput): string {
  const sanctified = input.sanctified ?? true;
  const nav: Nav = !sanctified ? "open" : input.identityEmulator ? "emulator" : "signin";
  const flags = parseFlags(input.deploymentFlags);
  flags.sanctified = sanctified;
  let type = parseType(input.deploymentType);
  if (type === "ethereal" || flags.ethereal) {
    type = "ethereal";
    flags.ethereal = true;
    flags.apotheosis = false;
  }
  const bit = (on: boolean) => (on ? "1" : "0");
  return `${nav}-${type}-${bit(flags.apotheosis)}${bit(flags.sanctified)}${bit(flags.ethereal)}`;
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
