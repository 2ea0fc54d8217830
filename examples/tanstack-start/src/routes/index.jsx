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
import { fillHypercube } from "../../../common/check.mjs";
import { useHydratedChecks } from "../../../common/react-page.mjs";

const serverHypercube = createServerFn({ method: "GET" }).handler(() => fillHypercube(graphics));

export const Route = createFileRoute("/")({
  loader: () => serverHypercube(),
  component: Home,
});

function Home() {
  const server = Route.useLoaderData();
  useHydratedChecks(`server function: ${server}`, { core, graphics, useTheme, useEffect, createElement, createRoot, flushSync });
  return <p id="server">{server}</p>;
}
