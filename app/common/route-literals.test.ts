// @vitest-environment node
// The page catalogue (routes.ts) is the only place a route's path is spelled: every string, template
// and regular expression in the app's code, its build code and its scripts that starts with one of
// its paths fails here, with its file and line. Comments, tests and test helpers may name paths.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { paths } from "./routes";

const app = fileURLToPath(new URL("..", import.meta.url));
// bench/ is the graphics bench harness: its paths are files of this folder, not routes.
const scanned = ["src", "common", "vite", "scripts"];
const catalogue = join("common", "routes.ts");

/** Each route's fixed part (`/mg` of `/mg/:tab`), less the landing page's `/`, which every URL starts with. */
const roots = [
  ...new Set(
    Object.values(paths)
      .map((path) => path.split("/:")[0] ?? "")
      .filter((root) => root !== "" && root !== "/"),
  ),
];

/** Whether `text` begins with a route's path (`/bench`, `/mg/cli/dmt.md`, `/home?x`). */
function namesRoute(text: string): boolean {
  return roots.some((root) => text.startsWith(root) && /^([/?#.]|$)/.test(text.slice(root.length)));
}

/** A regular expression literal's pattern as the path it matches (`/^\/mg\/(.+)$/` -> `/mg/(.+)`). */
function pathOfPattern(literal: string): string {
  return literal
    .slice(1, literal.lastIndexOf("/"))
    .replace(/^\^/, "")
    .replace(/\$$/, "")
    .replace(/\\(.)/g, "$1");
}

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "testing" ? [] : codeFiles(path);
    const test = /\.test(-d)?\.[cm]?[jt]sx?$/.test(entry.name);
    return /\.[cm]?[jt]sx?$/.test(entry.name) && !test ? [path] : [];
  });
}

/** The route paths spelled in `code` (the file `name`), as `name:line literal`. */
function routeLiterals(name: string, code: string): string[] {
  const source = ts.createSourceFile(name, code, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const text =
      ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)
        ? node.text
        : ts.isRegularExpressionLiteral(node)
          ? pathOfPattern(node.text)
          : undefined;
    if (text !== undefined && namesRoute(text)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${name}:${line + 1} ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the page catalogue", () => {
  // Parses every source file of the app: seconds on a loaded machine.
  it("is the only place a route path is spelled", { timeout: 30_000 }, () => {
    const files = scanned
      .flatMap((dir) => codeFiles(join(app, dir)))
      .map((file) => relative(app, file))
      .filter((file) => file !== catalogue);
    expect(files.length).toBeGreaterThan(50);
    const literals = files.flatMap((file) =>
      routeLiterals(file, readFileSync(join(app, file), "utf8")),
    );
    expect(literals).toEqual([]);
  });

  it("finds a route path in a string, a template, a JSX attribute and a regular expression", () => {
    const fixture = join(app, "common", "route-literals.fixture.txt");
    const found = routeLiterals("fixture.tsx", readFileSync(fixture, "utf8"));
    expect(found.map((entry) => entry.split(" ")[0])).toEqual(
      [2, 3, 4, 5, 6].map((line) => `fixture.tsx:${line}`),
    );
  });
});
