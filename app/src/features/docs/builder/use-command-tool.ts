// Offers the command builder to browser agents as the WebMCP tool `build_mg_command` while a CLI page
// is shown. Feature-detected: where the browser has no `navigator.modelContext` nothing is fetched.
import { useEffect } from "react";
import { loadCatalogue, loadCommandBuilder } from "../page/load-page";
import type { ModelContextLike } from "./command-tool";

/** The browser's WebMCP model context, when it has one this page can register a tool with. */
export function browserModelContext(): ModelContextLike | undefined {
  try {
    if (typeof navigator === "undefined") return undefined;
    const context: unknown = (navigator as Navigator & { modelContext?: unknown }).modelContext;
    if (typeof context !== "object" || context === null) return undefined;
    const candidate = context as ModelContextLike;
    return typeof candidate.registerTool === "function" ||
      typeof candidate.provideContext === "function"
      ? candidate
      : undefined;
  } catch {
    // A browser that guards the attribute (no secure context) has no WebMCP for this page.
    return undefined;
  }
}

/**
 * While `active` (a CLI page is mounted) and the browser offers WebMCP, registers the tool; it is
 * unregistered when the page goes. The tool's code is reached through the builder's chunk
 * (`loadBuilder`), whose validation it shares.
 */
export function useCommandTool(active: boolean, loadBuilder = loadCommandBuilder): void {
  useEffect(() => {
    if (!active) return;
    const context = browserModelContext();
    if (!context) return;
    let live = true;
    let unregister: (() => void) | undefined;
    loadBuilder()
      .then((builder) => builder.loadCommandTool())
      .then(
        (tool) => {
          if (live) unregister = tool.registerCommandTool(context, loadCatalogue);
        },
        // No tool without its chunks; the page itself shows the builder's own retry.
        () => undefined,
      );
    return () => {
      live = false;
      unregister?.();
    };
  }, [active, loadBuilder]);
}
