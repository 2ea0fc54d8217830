import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { AppRoutes, preloadFor } from "./app/router";
import { ThemeProvider } from "./components/theme-provider";
import { identityMisconfigured } from "./config/env";
import { SessionProvider } from "./lib/session/session-provider";
import "./styles.css";

// Shown only when the identity setup is incomplete: its own chunk.
const ConfigNotice = lazy(() =>
  import("./components/config-notice").then((m) => ({ default: m.ConfigNotice })),
);

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

preloadFor(window.location.pathname);

createRoot(root).render(
  <StrictMode>
    <ThemeProvider>
      {identityMisconfigured ? (
        <Suspense fallback={null}>
          <ConfigNotice />
        </Suspense>
      ) : (
        <SessionProvider>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </SessionProvider>
      )}
    </ThemeProvider>
  </StrictMode>,
);
