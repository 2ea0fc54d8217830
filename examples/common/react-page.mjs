// What a server-rendered React page checks once hydrated, for the React frameworks' fixtures (React
// Router, Vike, TanStack Start). React and the package's modules are passed in, so each framework's
// bundler resolves them from the page under its own conditions.
import { driveMachines, fillHypercube, toggleThemeHook } from "./check.mjs";
import { report } from "./report.mjs";

/**
 * A hook: once the page is hydrated, publishes `serverLine` (what the server computed), then the
 * machines, a hypercube frame and `mg-core/react`'s theme toggle driven in the browser.
 */
export function useHydratedChecks(serverLine, { core, graphics, useTheme, useEffect, createElement, createRoot, flushSync }) {
  useEffect(() => {
    report(async () => [
      serverLine,
      driveMachines(core),
      fillHypercube(graphics),
      await toggleThemeHook({ createElement, createRoot, flushSync, useTheme, ThemeMachine: core.ThemeMachine }),
    ]);
  }, [serverLine]);
}
