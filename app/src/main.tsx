import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { App } from "./app/app";
import { preloadFor, preloadRoute } from "./app/router";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

preloadFor(window.location.pathname);

const app = <App Router={BrowserRouter} />;
if (root.firstElementChild) {
  // A prerendered page (README "How rendering works"): its chunk and data load first, so the first
  // render equals the HTML and hydration keeps every node; the page is readable meanwhile.
  // A failed download leaves the page as the server sent it; hydration then loads what it needs.
  await preloadRoute(window.location.pathname).catch(() => {});
  hydrateRoot(root, app);
} else {
  // The shell (personal routes, a variant the build did not prerender, a static build): render here.
  createRoot(root).render(app);
}
