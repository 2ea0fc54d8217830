// The page, server-rendered by vike-react and hydrated: the machines, the graphics and
// `mg-core/react` in the browser (the `development` condition in `vike dev`).
import * as core from "mg-core";
import * as graphics from "mg-core/graphics";
import { useTheme } from "mg-core/react";
import { createElement, useEffect } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { useData } from "vike-react/useData";
import { useHydratedChecks } from "../../../common/react-page.mjs";

export default function Page() {
  const { server } = useData();
  useHydratedChecks(`server data: ${server}`, { core, graphics, useTheme, useEffect, createElement, createRoot, flushSync });
  return <p id="server">{server}</p>;
}
