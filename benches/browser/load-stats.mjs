// The /bench page's statistics module (app/src/features/bench/stats.ts) for the terminal scripts
// here: one module, its types stripped on the fly by the app's TypeScript (no copy to drift), so
// the terminal and the page compute the same intervals and verdicts.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const appDir = fileURLToPath(new URL("../../app", import.meta.url));

export async function loadStats() {
  const ts = createRequire(join(appDir, "package.json"))("typescript");
  const source = await readFile(join(appDir, "src", "features", "bench", "stats.ts"), "utf8");
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputText).toString("base64")}`);
}
