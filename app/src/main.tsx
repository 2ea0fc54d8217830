import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { AppRoutes } from "./app/router";
import { ConfigNotice } from "./components/config-notice";
import { ThemeProvider } from "./components/theme-provider";
import { identityMisconfigured } from "./config/env";
import { SessionProvider } from "./lib/session/session-provider";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

createRoot(root).render(
  <StrictMode>
    <ThemeProvider>
      {identityMisconfigured ? (
        <ConfigNotice />
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
