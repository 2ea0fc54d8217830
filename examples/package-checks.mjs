// Checks on the built package (pkg/), before any fixture uses it:
// - its TypeScript declarations equal the committed contract, so an API change is always a reviewed
//   diff; `node examples/package-checks.mjs --update` rewrites the contract from the build;
// - no `any` in them, and every class has `free()` and `[Symbol.dispose]()`;
// - each .wasm within its gzip budget (zlib level 9): machines 40 KB, graphics 25 KB (the scalar
//   build and the SIMD one each), status page 40 KB;
// - the package README's figures and entry list are the build's (core-wasm/npm/sizes.mjs).
//
// The contract is stored once per API, not once per build target (core-wasm/api/README.md): each
// .wasm's wasm-bindgen module `<name>` is one part of the package, in a folder of its own, declared
// four times, and each declaration must be exactly what the contract gives for it:
//   <part>/bundler/<name>.d.ts  core-wasm/api/<api>.d.ts
//   <part>/web/<name>.d.ts      the same, followed by core-wasm/api/web-init.d.ts (wasm-bindgen's
//                               init() and initSync(), which only the web target has)
//   <part>/slim/index.d.ts      core-wasm/npm/templates/slim.d.ts, rendered for <name>
//   <part>/node/index.d.ts      core-wasm/npm/templates/node.d.ts, rendered for <name>
// and react/index.d.ts (mg-core/react, no wasm of its own) and wasm.d.ts (the .wasm subpaths' types)
// are their sources in core-wasm/npm/.
// where <api> is <name> less a `_simd` suffix: the SIMD build of a .wasm declares its scalar build's API.
// Any other .d.ts in the package, a part without all four, or a contract file no part uses fails.
// Each part's node/index.d.cts (the CommonJS build's types) must equal its bundler .d.ts.
//
// And the packed tarball, as a registry would serve it (lintTarball): `publint --strict` with no
// message at all, and `@arethetypeswrong/cli` with no problem under any resolution (node10, node16
// from CommonJS and from ES modules, bundler), both pinned in examples/package.json.
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { committedBlock, sizesBlock } from "../core-wasm/npm/sizes.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = join(root, "pkg");
const contract = join(root, "core-wasm/api");
const templates = join(root, "core-wasm/npm/templates");
const WEB_INIT = "web-init.d.ts";
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

const read = (path) => readFileSync(path, "utf8");
const apiOf = (name) => name.replace(/_simd$/, "");
const ENTRIES = ["bundler", "web", "slim", "node"];

/** The package's parts: folder (relative, "" for the root) -> wasm-bindgen module name. */
function parts(built) {
  const found = new Map();
  for (const path of built) {
    const match = /^(?:(.+)\/)?bundler\/(\w+)\.d\.ts$/.exec(path);
    if (match) found.set(match[1] ?? "", match[2]);
  }
  return found;
}

/** What the contract says `path` (relative to the package) must hold, or undefined if it says nothing. */
function expected(path, found) {
  // mg-core/react is written by hand: its declarations are its source's.
  if (path === "react/index.d.ts") return read(join(root, "core-wasm/npm/react/index.d.ts"));
  if (path === "wasm.d.ts") return read(join(root, "core-wasm/npm/wasm.d.ts"));
  const match = /^(?:(.+)\/)?(bundler|web|slim|node)\/(\w+)\.d\.ts$/.exec(path);
  if (!match) return undefined;
  const [, dir = "", entry, file] = match;
  const name = found.get(dir);
  if (!name) return undefined;
  if (entry === "bundler" || entry === "web") {
    if (file !== name) return undefined;
    const api = read(join(contract, `${apiOf(name)}.d.ts`));
    return entry === "web" ? api + read(join(contract, WEB_INIT)) : api;
  }
  if (file !== "index") return undefined;
  const pkgName = dir ? `mg-core/${dir}` : "mg-core";
  return read(join(templates, `${entry}.d.ts`))
    .replaceAll("__NAME__", name)
    .replaceAll("__PKG__", pkgName);
}

/** The first line where two texts differ, for the message. */
function firstDifference(actual, wanted) {
  const a = actual.split("\n");
  const w = wanted.split("\n");
  let line = 0;
  while (line < Math.max(a.length, w.length) && a[line] === w[line]) line += 1;
  return `line ${line + 1}: built ${JSON.stringify(a[line] ?? "(end)")}, contract ${JSON.stringify(w[line] ?? "(end)")}`;
}

function checkDeclarations(built, problems) {
  const found = parts(built);
  const used = new Set([WEB_INIT]);
  for (const [dir, name] of found) {
    used.add(`${apiOf(name)}.d.ts`);
    for (const entry of ENTRIES) {
      const path = `${dir ? `${dir}/` : ""}${entry}/${entry === "slim" || entry === "node" ? "index" : name}.d.ts`;
      if (!built.includes(path)) problems.push(`${path} is missing from the package`);
    }
  }
  const committed = readdirSync(contract).filter((file) => file.endsWith(".d.ts"));
  for (const file of used)
    if (!committed.includes(file)) problems.push(`core-wasm/api/${file} is missing: commit it`);
  for (const file of committed)
    if (!used.has(file)) problems.push(`core-wasm/api/${file} is not in the package any more`);
  for (const path of built) {
    let wanted;
    try {
      wanted = expected(path, found);
    } catch {
      continue; // its contract file is missing, reported above
    }
    const actual = read(join(pkg, path));
    if (wanted === undefined)
      problems.push(
        `${path} is new in the package: give it a contract (examples/package-checks.mjs)`,
      );
    else if (actual !== wanted)
      problems.push(`${path} differs from its contract, ${firstDifference(actual, wanted)}`);
  }
  for (const [dir, name] of found) {
    const cts = join(dir, "node/index.d.cts");
    const bundler = join(dir, "bundler", `${name}.d.ts`);
    let same = false;
    try {
      same = read(join(pkg, cts)) === read(join(pkg, bundler));
    } catch {}
    if (!same) problems.push(`${cts} is missing or differs from ${bundler}`);
  }
  if (problems.length)
    problems.push("(review the API change, then: node examples/package-checks.mjs --update)");
}

/** The packed tarball's name, beside pkg/ (make package), or undefined. */
const findTarball = () => readdirSync(root).find((name) => /^mg-core-.*\.tgz$/.test(name));

export function checkPackage() {
  const problems = [];
  const lines = [];
  const built = files(pkg, ".d.ts").map((path) => relative(pkg, path));
  checkDeclarations(built, problems);

  for (const path of built) {
    const text = read(join(pkg, path));
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    if (/\bany\b/.test(code)) problems.push(`${path}: \`any\` in a public signature`);
    for (const [, name, body] of code.matchAll(/export class (\w+)[^{]*\{([\s\S]*?)\n\}/g)) {
      if (!/\bfree\(\): void;/.test(body)) problems.push(`${path}: class ${name} has no free()`);
      if (!/\[Symbol\.dispose\]\(\): void;/.test(body))
        problems.push(`${path}: class ${name} has no [Symbol.dispose]()`);
    }
  }
  lines.push(`${built.length} declaration files match core-wasm/api/ and core-wasm/npm/templates/`);

  for (const path of files(pkg, ".wasm")) {
    const name = path.split("/").pop();
    const gzip = gzipSync(readFileSync(path), { level: 9 }).length;
    const budget = BUDGETS[name];
    const line = `${relative(pkg, path)}: ${statSync(path).size} bytes, ${gzip} gzip (budget ${budget})`;
    lines.push(line);
    if (!(gzip <= budget)) problems.push(`over budget: ${line}`);
  }
  const tarball = findTarball();
  if (!tarball) problems.push("no mg-core-*.tgz (make package)");
  else {
    lines.push(`${tarball}: ${statSync(join(root, tarball)).size} bytes`);
    if (committedBlock() !== sizesBlock())
      problems.push("core-wasm/npm/README.md: its sizes and entries differ from the build (node core-wasm/npm/sizes.mjs --write)");
    else lines.push("core-wasm/npm/README.md: its sizes and entries are the build's");
  }

  if (problems.length) throw new Error(problems.join("\n"));
  return lines.join("\n");
}


/**
 * Runs one of examples/node_modules/.bin's tools; resolves with its exit code and output. The output
 * goes through a file: attw exits before a pipe has taken more than its first 64 KiB.
 */
function tool(name, args) {
  const dir = mkdtempSync(join(tmpdir(), `mg-core-${name}-`));
  const out = openSync(join(dir, "stdout"), "w");
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, "examples/node_modules/.bin", name), args, { cwd: root, stdio: ["ignore", out, "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      closeSync(out);
      const stdout = readFileSync(join(dir, "stdout"), "utf8");
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
  });
}

/** publint --strict and arethetypeswrong on the packed tarball: no message, no problem. */
export async function lintTarball(tarball = join(root, findTarball() ?? "mg-core-missing.tgz")) {
  const [lint, types] = await Promise.all([
    tool("publint", ["--strict", tarball]),
    tool("attw", [tarball, "--format", "json"]),
  ]);
  const problems = [];
  // publint prints "All good!" when it has nothing to say; any error, warning or suggestion fails.
  if (lint.code !== 0 || !/All good/.test(lint.stdout)) problems.push(`publint --strict:\n${lint.stdout}${lint.stderr}`);
  let analysis;
  try {
    analysis = JSON.parse(types.stdout);
  } catch {
    problems.push(`attw gave no JSON:\n${types.stdout}${types.stderr}`);
  }
  // Its problems, grouped by kind: each names an entry and a resolution mode, or the files.
  const found = Object.values(analysis?.problems ?? {}).flat();
  if (types.code !== 0 || found.length)
    problems.push(
      `attw (exit ${types.code}): ${found.length} problems:\n${found
        .map((p) => `  ${p.kind} ${p.entrypoint ?? p.typesFileName ?? ""} ${p.resolutionKind ?? ""}`)
        .join("\n")}`,
    );
  if (problems.length) throw new Error(problems.join("\n"));
  const entries = Object.keys(analysis.analysis?.entrypoints ?? {}).length;
  return `publint --strict: all good; attw: ${entries} entries, no problem under node10, node16 (CommonJS and ESM), bundler`;
}

/** Rewrites core-wasm/api/ from the build: each API from a scalar bundler build, the web addition once. */
function update() {
  for (const file of readdirSync(contract))
    if (file.endsWith(".d.ts")) rmSync(join(contract, file));
  const built = files(pkg, ".d.ts").map((path) => relative(pkg, path));
  for (const [dir, name] of parts(built)) {
    const bundler = read(join(pkg, dir, "bundler", `${name}.d.ts`));
    const web = read(join(pkg, dir, "web", `${name}.d.ts`));
    if (apiOf(name) === name) writeFileSync(join(contract, `${name}.d.ts`), bundler);
    // The check compares every web build with this, so whichever part writes it last is enough.
    if (web.startsWith(bundler)) writeFileSync(join(contract, WEB_INIT), web.slice(bundler.length));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--update")) update();
  console.log(checkPackage());
  console.log(await lintTarball());
}
