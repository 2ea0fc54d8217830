import { type ReactNode, startTransition, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { App } from "./app/app";
import { preloadFor, preloadRoute } from "./app/router";
import "./styles.css";

declare global {
  interface Window {
    /** Set by a prerendered page's inline loader (`scripts/prerender.mjs` EARLY_CLICKS). */
    __mgEarlyClicks?: () => HTMLElement[];
  }
}

/**
 * Once React has committed the page, stops the loader's holding of early clicks and clicks again the
 * buttons the visitor clicked before hydration, in order (a button that is gone is skipped).
 */
function EarlyClicks({ children }: { children: ReactNode }) {
  useEffect(() => {
    const take = window.__mgEarlyClicks;
    if (!take) return;
    window.__mgEarlyClicks = undefined;
    const held = take();
    // Out of React's commit: a click on a part not hydrated yet makes React hydrate it at once and
    // then run its handler, which it cannot do from inside an effect (the click would be dropped).
    // (Not cancelled on cleanup: the held clicks are taken once, and StrictMode's second run in
    // development finds none.)
    setTimeout(() => {
      for (const button of held) if (button.isConnected) button.click();
    });
  }, []);
  return children;
}

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

preloadFor(window.location.pathname);

const app = (
  <EarlyClicks>
    <App Router={BrowserRouter} />
  </EarlyClicks>
);
if (root.firstElementChild) {
  // A prerendered page (docs/rendering.md): its chunk and data load first, so the first
  // render equals the HTML and hydration keeps every node; the page is readable meanwhile.
  // A failed download leaves the page as the server sent it; hydration then loads what it needs.
  await preloadRoute(window.location.pathname).catch(() => {});
  // As a transition, hydration is time-sliced: React yields to the browser every few milliseconds
  // instead of holding the main thread for the whole tree (a long task of 100-250 ms on a phone).
  startTransition(() => {
    hydrateRoot(root, app);
  });
} else {
  // The shell (personal routes, a variant the build did not prerender, a static build): render here.
  createRoot(root).render(app);
}
