// One route of a server-rendered React Router app, nothing about mg-core configured: its loader
// fills a hypercube on the server (in `react-router dev`, Vite's SSR with the `node` + `module`
// conditions), the page drives the machines, the graphics and `mg-core/react` in the browser (the
// `development` condition) and publishes the outcome.
import * as core from "mg-core";
import * as graphics from "mg-core/graphics";
import { useTheme } from "mg-core/react";
import { createElement, useEffect } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { useLoaderData } from "react-router";
import { fillHypercube } from "../../../common/check.mjs";
import { useHydratedChecks } from "../../../common/react-page.mjs";

export function loader() {
  return { server: fillHypercube(graphics) };
}

export default function Home() {
  const { server } = useLoaderData();
  useHydratedChecks(`server loader: ${server}`, { core, graphics, useTheme, useEffect, createElement, createRoot, flushSync });
  return <p id="server">{server}</p>;
}
