// The /bench page's statistics module (app/src/features/bench/stats.ts) and its comparison with
// native (native.ts) for the terminal scripts here: one module each, its types stripped on the fly
// by the app's TypeScript (no copy to drift), so the terminal and the page compute the same
// intervals and verdicts.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const appDir = fileURLToPath(new URL("../../app", import.meta.url));

/** A module of the bench feature as a data: URL; `imports` maps its relative imports to others. */
async function moduleUrl(name, imports = {}) {
  const ts = createRequire(join(appDir, "package.json"))("typescript");
  const source = await readFile(join(appDir, "src", "features", "bench", `${name}.ts`), "utf8");
  let { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  for (const [from, url] of Object.entries(imports))
    outputText = outputText.replaceAll(`from "${from}"`, `from "${url}"`);
  return `data:text/javascript;base64,${Buffer.from(outputText).toString("base64")}`;
}

export async function loadStats() {
  return import(await moduleUrl("stats"));
}

/** native.ts, with its import of stats.ts resolved. */
export async function loadNative() {
  return import(await moduleUrl("native", { "./stats": await moduleUrl("stats") }));
}
