// The page, server-rendered by vike-react and hydrated: the machines, the graphics and
// `mg-core/react` in the browser (the `development` condition in `vike dev`).
import * as core from "mg-core";
import * as graphics from "mg-core/graphics";
import { useTheme } from "mg-core/react";
import { createElement, useEffect } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { useData } from "vike-react/useData";
import { driveMachines, fillHypercube, toggleThemeHook } from "../../../common/check.mjs";
import { report } from "../../../common/report.mjs";

export default function Page() {
  const { server } = useData();
  useEffect(() => {
    report(async () => [
      `server data: ${server}`,
      driveMachines(core),
      fillHypercube(graphics),
      await toggleThemeHook({ createElement, createRoot, flushSync, useTheme, ThemeMachine: core.ThemeMachine }),
    ]);
  }, [server]);
  return <p id="server">{server}</p>;
}
