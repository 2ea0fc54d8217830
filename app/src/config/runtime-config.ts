// Deployment values the server injects into index.html at request time (they beat the VITE_* build values).
import type { RuntimeConfig } from "@common/http-types";

/**
 * What `<script type="application/json" id="mg-runtime-config">` carries: the server's RuntimeConfig
 * (generated from its Rust struct, common/http-types.ts), every field possibly absent, since a static
 * build without the server has no such element.
 */
export type InjectedConfig = Partial<RuntimeConfig>;

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
 * How each field is read; a value of the wrong type reads as absent. One reader per field of the
 * server's struct, no more and no fewer: a field the server adds, renames or drops fails the
 * typecheck here until it is read.
 */
const readers: { [K in keyof RuntimeConfig]-?: (value: unknown) => RuntimeConfig[K] | undefined } =
  {
    // The server sends the flags as the JSON text the build uses; an object is taken as well.
    deploymentFlags: (value) =>
      typeof value === "object" && value !== null ? JSON.stringify(value) : optionalText(value),
    deploymentId: optionalText,
    deploymentType: optionalText,
    identityBaseUrl: optionalText,
    identityEmulator: (value) => (value === true ? true : undefined),
    identityProjectId: optionalText,
    sanctified: (value) => (typeof value === "boolean" ? value : undefined),
  };

/**
 * Reads the injected JSON. Absent element, unreadable JSON or a wrong type reads as "not given", so a
 * static build without the server falls back to its VITE_* values (a broken injection is logged).
 */
export function readRuntimeConfig(
  doc: Pick<Document, "getElementById"> | undefined = typeof document === "undefined"
    ? undefined
    : document,
): InjectedConfig {
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
  const config: Record<string, unknown> = {};
  for (const [key, read] of Object.entries(readers)) {
    const field = read(value[key]);
    if (field !== undefined) config[key] = field;
  }
  return config as InjectedConfig;
}
