// The whole app below its router, shared by the browser (main.tsx) and the build's prerender
// (entry-server.tsx), so both render the same tree: the prerendered HTML is the browser's first render.
import { lazy, type ReactNode, StrictMode, Suspense } from "react";
import { ThemeProvider } from "../components/theme-provider";
import { identityMisconfigured } from "../config/env";
import { SessionProvider } from "../lib/session/session-provider";
import { AppRoutes } from "./router";

// Shown only when the identity setup is incomplete: its own chunk.
const ConfigNotice = lazy(() =>
  import("../components/config-notice").then((m) => ({ default: m.ConfigNotice })),
);

/** `Router` is BrowserRouter in the browser, a StaticRouter at the prerendered path in the build. */
export function App({ Router }: { Router: (props: { children: ReactNode }) => ReactNode }) {
  return (
    <StrictMode>
      <ThemeProvider>
        {identityMisconfigured ? (
          <Suspense fallback={null}>
            <ConfigNotice />
          </Suspense>
        ) : (
          <SessionProvider>
            <Router>
              <AppRoutes />
            </Router>
          </SessionProvider>
        )}
      </ThemeProvider>
    </StrictMode>
  );
}
