// The READMEs are tested: every code block of the package's README (core-wasm/npm/README.md) and of
// examples/README.md is written to readme/blocks/ (generated, git-ignored) and compiled there with
// tsc (strict; TypeScript blocks type-checked, JavaScript ones parsed); a block whose info string
// says `node` (```js node) is also run with Node, and one that says `workerd` (```ts workerd) is served
// in workerd with the `capnp` block that follows it as its configuration, and must answer GET / with
// 200. `sh` blocks are commands; `json` blocks must parse.
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
    // TypeScript's own lib files need no checking here (half of each run); the package's still do.
    skipDefaultLibCheck: true,
    types: [],
  },
  include: ["*"],
};

/**
 * `here`: the examples folder; `run` and `bin`: the matrix's; `workerd(entry, config)` serves a
 * Worker and resolves with its answer to GET / (workerd/serve.mjs).
 */
export async function checkReadmes({ here, run, bin, workerd }) {
  const dir = join(here, "readme", "blocks");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
  const runnable = [];
  const workers = [];
  const counts = {};
  for (const [name, path] of Object.entries(READMES)) {
    const text = readFileSync(join(here, path), "utf8");
    for (const match of text.matchAll(/^```(\w*)([^\n]*)\n([\s\S]*?)^```$/gm)) {
      const [, lang, info, code] = match;
      const line = text.slice(0, match.index).split("\n").length;
      const where = `${path}:${line}`;
      counts[name] = (counts[name] ?? 0) + 1;
      if (lang === "sh") continue;
      if (lang === "capnp") {
        const worker = workers.findLast((entry) => entry.name === name);
        if (!worker || worker.config) throw new Error(`${where}: a \`capnp\` block must follow a \`workerd\` block`);
        worker.config = `${name}-${line}.capnp`;
        writeFileSync(join(dir, worker.config), code);
        continue;
      }
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
      const tags = info.trim().split(/\s+/);
      if (tags.includes("node")) runnable.push([where, file]);
      if (tags.includes("workerd")) workers.push({ name, where, file });
    }
  }
  for (const { where, config } of workers)
    if (!config) throw new Error(`${where}: a \`workerd\` block needs a \`capnp\` block after it`);
  await run(bin("tsc"), ["-p", "tsconfig.json"], "readme/blocks");
  const ran = [];
  for (const [where, file] of runnable) {
    await run("node", [file], "readme/blocks").catch((error) => {
      throw new Error(`${where}: ${error.message}`);
    });
    ran.push(where);
  }
  for (const { where, file, config } of workers) {
    await workerd(join(dir, file), join(dir, config)).catch((error) => {
      throw new Error(`${where}: ${error.message}`);
    });
    ran.push(`${where} (workerd)`);
  }
  const summary = Object.entries(counts).map(([name, count]) => `${name} README: ${count} blocks`);
  return `${summary.join(", ")}; compiled with tsc --strict; ran ${ran.join(", ")}`;
}
