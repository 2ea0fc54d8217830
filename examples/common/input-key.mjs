// The package matrix's input, as one hash: when it equals the one stored after the last run that
// passed on this machine, `run-matrix.mjs` skips the fixtures (docs/development.md, "The package
// matrix"). The input: the packed tarball (its bytes: pkg/ is what it packs), the fixtures' lockfile
// and every file of examples/ that git tracks or would track (node_modules/ and the builds' output
// are ignored), the contract and templates the checks compare with (core-wasm/api/, core-wasm/npm/),
// the browsers' launch options, and the versions of Node and of the two browsers.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const INPUTS = ["examples", "core-wasm/api", "core-wasm/npm", "app/common/chromium.mjs"];
const BROWSERS = ["/usr/bin/chromium", "/usr/bin/firefox-esr"];

/** The input's hash, or undefined when it cannot be had (no tarball, not a git checkout). */
export function inputKey(root) {
  const tarball = readdirSync(root).find((name) => /^mg-core-.*\.tgz$/.test(name));
  if (!tarball) return undefined;
  let listed;
  try {
    listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...INPUTS], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return undefined;
  }
  const hash = createHash("sha256");
  const add = (name, bytes) => hash.update(`${name}\0${bytes.length}\0`).update(bytes);
  add(tarball, readFileSync(join(root, tarball)));
  // Sorted and de-duplicated; a tracked file deleted from the work tree (listed still) is skipped.
  for (const path of [...new Set(listed.split("\0").filter(Boolean))].sort()) {
    const file = join(root, path);
    if (existsSync(file) && statSync(file).isFile()) add(path, readFileSync(file));
  }
  add("node", Buffer.from(process.version));
  for (const browser of BROWSERS) {
    const stat = existsSync(browser) ? statSync(browser) : undefined;
    add(browser, Buffer.from(stat ? `${stat.size} ${stat.mtimeMs}` : "absent"));
  }
  return hash.digest("hex");
}

/** Where the key of the last run that passed is kept (target/ is the build's, never committed). */
const keyFile = (root) => join(root, "target", "package-matrix.key");

/** Why the fixtures need not run (the input is the last passing run's), or undefined: they run. */
export function skipReason(root, key, { force, ci }) {
  if (force || ci || !key || !existsSync(keyFile(root))) return undefined;
  if (readFileSync(keyFile(root), "utf8").trim() !== key) return undefined;
  return `skipped: the tarball, examples/package-lock.json and the fixtures' sources are those of the last run that passed here (key ${key.slice(0, 12)} in target/package-matrix.key); --force or MG_PACKAGE_MATRIX_FORCE=1 runs it anyway`;
}

/** Stores `key` as the last passing run's. */
export function rememberPassed(root, key) {
  if (!key) return;
  mkdirSync(join(root, "target"), { recursive: true });
  writeFileSync(keyFile(root), `${key}\n`);
}
