// On the server (Vite's SSR in `vite dev`: the `node` + `module` conditions).
import * as graphics from "mg-core/graphics";
import { fillHypercube } from "../../../common/check.mjs";

export function load() {
  return { server: fillHypercube(graphics) };
}
