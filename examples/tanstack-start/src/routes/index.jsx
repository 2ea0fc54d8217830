// One route of a TanStack Start app, nothing about mg-core configured: a server function fills a
// hypercube on the server (Vite's SSR environment, the `node` + `module` conditions) for the route's
// loader, the page drives the machines, the graphics and `mg-core/react` in the browser (in `vite
// dev`, the `development` condition) and publishes the outcome.
import { createFileRoute } from "@tanstack/react-router";
import { createServerFn } from "@tanstack/react-start";
import * as core from "mg-core";
import * as graphics from "mg-core/graphics";
import { useTheme } from "mg-core/react";
import { createElement, useEffect } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { driveMachines, fillHypercube, toggleThemeHook } from "../../../common/check.mjs";
import { report } from "../../../common/report.mjs";

const serverHypercube = createServerFn({ method: "GET" }).handler(() => fillHypercube(graphics));

export const Route = createFileRoute("/")({
  loader: () => serverHypercube(),
  component: Home,
});

function Home() {
  const server = Route.useLoaderData();
  useEffect(() => {
    report(async () => [
      `server function: ${server}`,
      driveMachines(core),
      fillHypercube(graphics),
      await toggleThemeHook({ createElement, createRoot, flushSync, useTheme, ThemeMachine: core.ThemeMachine }),
    ]);
  }, [server]);
  return <p id="server">{server}</p>;
}
