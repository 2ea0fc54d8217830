// Checks on the built package (target/npm/mg-core), before any fixture uses it:
// - its TypeScript declarations equal the committed contract in core-wasm/api/ (same files, same
//   text), so an API change is always a reviewed diff; `node examples/package-checks.mjs --update`
//   rewrites the contract from the build;
// - no `any` in them, and every class has `free()` and `[Symbol.dispose]()`;
// - each .wasm within its gzip budget (zlib level 9): machines 40 KB, graphics 25 KB (the scalar
//   build and the SIMD one each), status page 40 KB.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = join(root, "target/npm/mg-core");
const contract = join(root, "core-wasm/api");
const BUDGETS = {
  "mg_core_bg.wasm": 40 * 1024,
  "mg_core_graphics_bg.wasm": 25 * 1024,
  "mg_core_graphics_simd_bg.wasm": 25 * 1024,
  "mg_core_status_bg.wasm": 40 * 1024,
};

function files(dir, suffix) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...files(path, suffix));
    else if (entry.name.endsWith(suffix)) found.push(path);
  }
  return found.sort();
}

export function checkPackage() {
  const problems = [];
  const lines = [];
  const built = files(pkg, ".d.ts").map((path) => relative(pkg, path));
  const committed = files(contract, ".d.ts").map((path) => relative(contract, path));
  for (const path of new Set([...built, ...committed])) {
    if (!built.includes(path)) problems.push(`core-wasm/api/${path} is not in the package any more`);
    else if (!committed.includes(path)) problems.push(`${path} is new in the package: commit it to core-wasm/api/`);
    else if (readFileSync(join(pkg, path), "utf8") !== readFileSync(join(contract, path), "utf8"))
      problems.push(`${path} differs from core-wasm/api/${path}`);
  }
  if (problems.length) problems.push("(review the API change, then: node examples/package-checks.mjs --update)");

  for (const path of built) {
    const text = readFileSync(join(pkg, path), "utf8");
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    if (/\bany\b/.test(code)) problems.push(`${path}: \`any\` in a public signature`);
    for (const [, name, body] of code.matchAll(/export class (\w+)[^{]*\{([\s\S]*?)\n\}/g)) {
      if (!/\bfree\(\): void;/.test(body)) problems.push(`${path}: class ${name} has no free()`);
      if (!/\[Symbol\.dispose\]\(\): void;/.test(body))
        problems.push(`${path}: class ${name} has no [Symbol.dispose]()`);
    }
  }
  lines.push(`${built.length} declaration files match core-wasm/api/`);

  for (const path of files(pkg, ".wasm")) {
    const name = path.split("/").pop();
    const gzip = gzipSync(readFileSync(path), { level: 9 }).length;
    const budget = BUDGETS[name];
    const line = `${relative(pkg, path)}: ${statSync(path).size} bytes, ${gzip} gzip (budget ${budget})`;
    lines.push(line);
    if (!(gzip <= budget)) problems.push(`over budget: ${line}`);
  }
  const tarball = readdirSync(join(root, "target/npm")).find((name) => /^mg-core-.*\.tgz$/.test(name));
  if (!tarball) problems.push("no target/npm/mg-core-*.tgz (make package)");
  else lines.push(`${tarball}: ${statSync(join(root, "target/npm", tarball)).size} bytes`);

  if (problems.length) throw new Error(problems.join("\n"));
  return lines.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--update")) {
    rmSync(contract, { recursive: true, force: true });
    for (const path of files(pkg, ".d.ts")) {
      const to = join(contract, relative(pkg, path));
      mkdirSync(dirname(to), { recursive: true });
      cpSync(path, to);
    }
  }
  console.log(checkPackage());
}
