// @vitest-environment node
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// scripts/npm-ci.sh (the installs of app/ and examples/): `npm ci` once per key, a copy of the kept
// node_modules after that. The `npm` here is a stand-in on PATH that records each call and makes a
// node_modules with one file, so the test sees which installs ran npm and what each left behind.
const script = new URL("../../scripts/npm-ci.sh", import.meta.url).pathname;

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function setUp() {
  const root = mkdtempSync(join(tmpdir(), "npm-ci-"));
  roots.push(root);
  const bin = join(root, "bin");
  const project = join(root, "examples");
  mkdirSync(bin);
  mkdirSync(project);
  writeFileSync(
    join(bin, "npm"),
    `#!/bin/sh
[ "$1" = --version ] && { echo 10.0.0; exit 0; }
echo "$*" >> "${root}/npm-calls"
rm -rf node_modules && mkdir -p node_modules/pkg && cat package-lock.json > node_modules/pkg/lock
`,
  );
  chmodSync(join(bin, "npm"), 0o755);
  writeFileSync(join(project, "package.json"), "{}");
  writeFileSync(join(project, "package-lock.json"), "lock 1");
  const install = (cache = join(root, "cache")) =>
    execFileSync("bash", [script, project, "--no-audit"], {
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, MG_NODE_MODULES_CACHE: cache },
      encoding: "utf8",
    });
  const calls = () =>
    existsSync(join(root, "npm-calls"))
      ? readFileSync(join(root, "npm-calls"), "utf8").trim().split("\n")
      : [];
  const installed = () => readFileSync(join(project, "node_modules/pkg/lock"), "utf8");
  return { root, project, install, calls, installed };
}

describe("scripts/npm-ci.sh", () => {
  it("runs npm ci once per lockfile and copies the kept folder after that", () => {
    const { root, project, install, calls, installed } = setUp();
    install();
    expect(calls()).toEqual(["ci --no-audit"]);
    // A run writes into its node_modules; the kept copy does not see it.
    writeFileSync(join(project, "node_modules/pkg/lock"), "written by a run");
    expect(install()).toMatch(/copying the node_modules kept for this lockfile/);
    expect(calls()).toHaveLength(1);
    expect(installed()).toBe("lock 1");
    // A new lockfile installs anew and replaces the kept copy of the folder.
    writeFileSync(join(project, "package-lock.json"), "lock 2");
    install();
    expect(calls()).toHaveLength(2);
    expect(installed()).toBe("lock 2");
    expect(
      readdirSync(join(root, "cache")).filter((name) => name.startsWith("examples-")),
    ).toHaveLength(1);
  });

  it("always runs npm ci with MG_NODE_MODULES_CACHE=0", () => {
    const { install, calls } = setUp();
    install("0");
    install("0");
    expect(calls()).toEqual(["ci --no-audit", "ci --no-audit"]);
  });
});
