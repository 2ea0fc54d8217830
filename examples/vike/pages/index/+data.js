// On the server (Vite's SSR in `vike dev`: the `node` + `module` conditions).
import * as graphics from "mg-core/graphics";
import { fillHypercube } from "../../../common/check.mjs";

export function data() {
  return { server: fillHypercube(graphics) };
}
