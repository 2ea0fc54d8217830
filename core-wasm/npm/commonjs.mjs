// The CommonJS side of the entries that are hand-written or web-only ES modules, so `require()` of
// every entry gets a CommonJS module with CommonJS types (TypeScript's node16/nodenext in a CommonJS
// project, Jest): build.sh runs this once the parts are built.
//   react/index.cjs, react/index.d.cts   mg-core/react, its ES module rewritten (one `import` from
//                                        react, `export function` / `export const` declarations)
//   <part>/node/init.cjs                 `require` of <part>/web and <part>/slim: the CommonJS build,
//                                        ready once required, with init(), initSync() and
//                                        initialize() kept so the same code runs
//   <part>/node/web.d.cts, slim.d.cts    their types: the CommonJS build's (node/index.d.cts) with
//                                        the web build's init(); with the slim template's additions
//   node commonjs.mjs <package dir> <part dir>:<name> ...
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [out, ...parts] = process.argv.slice(2);
const templates = new URL("templates/", import.meta.url);

const source = readFileSync(join(out, "react/index.js"), "utf8");
const imports = [...source.matchAll(/^import \{([^}]*)\} from "react";$/gm)];
if (imports.length !== 1 || /^import\b(?! \{[^}]*\} from "react";$)/m.test(source))
  throw new Error("commonjs.mjs: react/index.js should import from react alone, in one statement; update me");
const names = [...source.matchAll(/^export (?:function|const) (\w+)/gm)].map((m) => m[1]);
if (/^export\b(?! (?:function|const) )/m.test(source))
  throw new Error("commonjs.mjs: react/index.js exports something other than a function or a const; update me");
writeFileSync(
  join(out, "react/index.cjs"),
  '"use strict";\n' +
    source
      .replace(imports[0][0], `const {${imports[0][1]}} = require("react");`)
      .replace(/^export (function|const) /gm, "$1 ") +
    `\nmodule.exports = { ${names.join(", ")} };\n`,
);
writeFileSync(join(out, "react/index.d.cts"), readFileSync(join(out, "react/index.d.ts")));

const init = readFileSync(new URL("init.cjs", templates), "utf8");
const slim = readFileSync(new URL("slim.d.ts", templates), "utf8");
const first = /^export \* from "\.\.\/web\/__NAME__\.js";\n/m;
if (!first.test(slim)) throw new Error("commonjs.mjs: templates/slim.d.ts no longer starts from the web build's types; update me");
for (const arg of parts) {
  const [dir, name] = arg.split(":");
  const bundler = readFileSync(join(out, dir, "bundler", `${name}.d.ts`), "utf8");
  const web = readFileSync(join(out, dir, "web", `${name}.d.ts`), "utf8");
  // The web build's declarations are the bundler build's followed by init()'s: each .d.cts adds its
  // own declarations to the one before it rather than copying them.
  if (!web.startsWith(bundler)) throw new Error(`commonjs.mjs: ${dir}/web/${name}.d.ts no longer extends the bundler build's; update me`);
  writeFileSync(join(out, dir, "node/init.cjs"), init);
  writeFileSync(join(out, dir, "node/web.d.cts"), `export * from "./index.cjs";\n${web.slice(bundler.length)}`);
  writeFileSync(join(out, dir, "node/slim.d.cts"), `export * from "./web.cjs";\n${slim.replace(first, "").replaceAll("__NAME__", name)}`);
}
