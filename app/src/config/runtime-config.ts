// Deployment values the server injects into index.html at request time (they beat the VITE_* build values).

/** What `<script type="application/json" id="mg-runtime-config">` may carry; every field optional. */
export interface RuntimeConfig {
  sanctified?: boolean;
  identityProjectId?: string;
  /** Base URL of the identity service; "" means this page's own origin. */
  identityBaseUrl?: string;
  deploymentId?: string;
  deploymentFlags?: string;
  deploymentType?: string;
  /** The server runs its local identity emulator on a public address on purpose: show the marker. */
  identityEmulator?: boolean;
}

export const RUNTIME_CONFIG_ELEMENT_ID = "mg-runtime-config";

declare global {
  /**
   * Set by the prerender (app/scripts/prerender.mjs) before it loads the server bundle for one variant:
   * the JSON the server will inject for a deployment of that variant. Never set in a browser.
   */
  var __MG_PRERENDER_RUNTIME_CONFIG__: string | undefined;
}

function optionalText(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return typeof value === "string" ? value.trim() : undefined;
}

/**
 * Reads the injected JSON. Absent element, unreadable JSON or a wrong type reads as "not given", so a
 * static build without the server falls back to its VITE_* values (a broken injection is logged).
 */
export function readRuntimeConfig(
  doc: Pick<Document, "getElementById"> | undefined = typeof document === "undefined"
    ? undefined
    : document,
): RuntimeConfig {
  const raw = doc
    ? doc.getElementById(RUNTIME_CONFIG_ELEMENT_ID)?.textContent
    : globalThis.__MG_PRERENDER_RUNTIME_CONFIG__;
  if (!raw?.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    console.error("Failed to parse the injected runtime config");
    return {};
  }
  if (typeof parsed !== "object" || parsed === null) return {};
  const value = parsed as Record<string, unknown>;
  const flags = value.deploymentFlags;
  return {
    sanctified: typeof value.sanctified === "boolean" ? value.sanctified : undefined,
    identityProjectId: optionalText(value.identityProjectId),
    identityBaseUrl: optionalText(value.identityBaseUrl),
    deploymentId: optionalText(value.deploymentId),
    // Flags may arrive as the JSON string the build uses or as an object already.
    deploymentFlags:
      typeof flags === "object" && flags !== null ? JSON.stringify(flags) : optionalText(flags),
    deploymentType: optionalText(value.deploymentType),
    identityEmulator: value.identityEmulator === true ? true : undefined,
  };
}
