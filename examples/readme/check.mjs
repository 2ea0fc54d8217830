// The READMEs are tested: every code block of the package's README (core-wasm/npm/README.md) and of
// examples/README.md is written to readme/blocks/ (generated, git-ignored) and compiled there with
// tsc (strict; TypeScript blocks type-checked, JavaScript ones parsed); a block whose info string
// says `node` (```js node) is also run with Node. `sh` blocks are commands; `json` blocks must parse.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const READMES = { package: "../core-wasm/npm/README.md", examples: "README.md" };
const EXTENSIONS = { ts: "ts", tsx: "tsx", js: "mjs", jsx: "jsx" };

const tsconfig = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    module: "ESNext",
    moduleResolution: "Bundler",
    jsx: "react-jsx",
    strict: true,
    noEmit: true,
    allowJs: true,
    skipLibCheck: false,
    types: [],
  },
  include: ["*"],
};

/** `here`: the examples folder; `run` and `bin`: the matrix's. */
export async function checkReadmes({ here, run, bin }) {
  const dir = join(here, "readme", "blocks");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
  const runnable = [];
  const counts = {};
  for (const [name, path] of Object.entries(READMES)) {
    const text = readFileSync(join(here, path), "utf8");
    for (const match of text.matchAll(/^```(\w*)([^\n]*)\n([\s\S]*?)^```$/gm)) {
      const [, lang, info, code] = match;
      const line = text.slice(0, match.index).split("\n").length;
      const where = `${path}:${line}`;
      counts[name] = (counts[name] ?? 0) + 1;
      if (lang === "sh") continue;
      if (lang === "json") {
        try {
          JSON.parse(code);
        } catch (error) {
          throw new Error(`${where}: the JSON block does not parse: ${error.message}`);
        }
        continue;
      }
      const extension = EXTENSIONS[lang];
      if (!extension) throw new Error(`${where}: a \`${lang || "plain"}\` block; tag it ts, tsx, js, sh or json`);
      const file = `${name}-${line}.${extension}`;
      // Each block is a module of its own (an `export {}` where it has no import or export).
      writeFileSync(join(dir, file), /^\s*(import|export)\b/m.test(code) ? code : `${code}\nexport {};\n`);
      if (info.trim().split(/\s+/).includes("node")) runnable.push([where, file]);
    }
  }
  await run(bin("tsc"), ["-p", "tsconfig.json"], "readme/blocks");
  const ran = [];
  for (const [where, file] of runnable) {
    await run("node", [file], "readme/blocks").catch((error) => {
      throw new Error(`${where}: ${error.message}`);
    });
    ran.push(where);
  }
  const summary = Object.entries(counts).map(([name, count]) => `${name} README: ${count} blocks`);
  return `${summary.join(", ")}; compiled with tsc --strict; ran ${ran.join(", ")}`;
}
