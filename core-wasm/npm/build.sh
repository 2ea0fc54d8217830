#!/usr/bin/env bash
# Builds the npm package of core-wasm from the .wasm files cargo built (`make package` does both):
#   pkg/                   the package, unpacked (the app depends on this folder)
#   mg-core-<version>.tgz  beside it, the same packed by `npm pack` (what users and the fixtures install)
# Each .wasm becomes one part of the package, with one folder per way of loading it (wasm-bindgen
# targets plus small hand-written entries from templates/); package.json's `exports` maps them.
#   core-wasm/npm/build.sh <raw dir>   (raw dir: mg_core.wasm, mg_core_graphics.wasm,
#                                       mg_core_graphics_simd.wasm, mg_core_status.wasm)
set -euo pipefail
cd "$(dirname "$0")/../.."
raw="${1:-target/npm/raw}"
src=core-wasm/npm
out=pkg
version=$(awk -F'"' '/^\[workspace.package\]/ { w = 1 } w && /^version = / { print $2; exit }' Cargo.toml)

rm -rf "$out" && mkdir -p "$out"

# part <raw .wasm> <folder in the package, "." for the root> <module name>
part() {
  local wasm="$1" dir="$out/$2" name="$3"
  wasm-bindgen "$wasm" --target bundler --out-dir "$dir/bundler" --out-name "$name"
  wasm-bindgen "$wasm" --target web --out-dir "$dir/web" --out-name "$name"
  # Both targets emit the same .wasm; the package ships it once, in bundler/ (where the bundler glue
  # imports it), and the web glue's default URL points there.
  cmp -s "$dir/bundler/${name}_bg.wasm" "$dir/web/${name}_bg.wasm" ||
    { echo "package: wasm-bindgen's bundler and web .wasm differ; ship both (update $0 and exports)" >&2; exit 1; }
  rm "$dir/web/${name}_bg.wasm"
  local web_url="new URL('${name}_bg.wasm', import.meta.url)"
  grep -qF "$web_url" "$dir/web/$name.js" ||
    { echo "package: the web glue's default .wasm URL changed; update $0" >&2; exit 1; }
  sed -i "s|$web_url|new URL('../bundler/${name}_bg.wasm', import.meta.url)|" "$dir/web/$name.js"

  # Errors that say what to do, in the glue (never in the .wasm): a freed object names its class,
  # a second free() does nothing, and the web glue before init() says to call it.
  local pkg="mg-core${4:+/$4}" classes guard
  classes=$(grep -oP '^export class \K\w+' "$dir/bundler/$name.d.ts")
  guard=$(sed "s|__PKG__|$pkg|g" "$src/templates/guard.js" |
    CLASSES=$(for c in $classes; do printf '__mgGuard(%s, "%s");\n' "$c" "$c"; done) \
      perl -pe 's/^__CLASSES__$/$ENV{CLASSES}/')
  printf '%s\n' "$guard" >>"$dir/bundler/${name}_bg.js"
  printf '%s\n' "$guard" >>"$dir/web/$name.js"
  local decl="let wasmModule, wasmInstance, wasm;"
  [ "$(grep -cF "$decl" "$dir/web/$name.js")" = 1 ] && [ "$(grep -cF "if (wasm !== undefined) return wasm;" "$dir/web/$name.js")" = 2 ] ||
    { echo "package: the web glue's wasm variable changed; update $0" >&2; exit 1; }
  local map
  map=$(node -e 'const m = {}; for (const c of process.argv.slice(1)) m[c.toLowerCase()] = c; console.log(JSON.stringify(m))' $classes)
  NOT_READY=$(sed -e "s|__PKG__|$pkg|g" -e "s|__CLASS_MAP__|$map|" "$src/templates/not-ready.js") DECL="$decl" perl -0pi -e \
    's/^\Q$ENV{DECL}\E$/$ENV{NOT_READY}\nlet wasmModule, wasmInstance, wasm = __mgNotReady;/m; s/if \(wasm !== undefined\) return wasm;/if (wasm !== __mgNotReady) return wasm;/g' \
    "$dir/web/$name.js"

  # The declarations stand on their own: `Disposable` (each class's [Symbol.dispose]) whatever the
  # caller's `lib`, and parameter names in camelCase as TypeScript callers write them (wasm-bindgen
  # keeps Rust's; only the names change, not what is passed). web-init's `module_or_path` stays: it
  # is also the key of the object init() takes.
  local dts
  for dts in "$dir/bundler/$name.d.ts" "$dir/web/$name.d.ts"; do
    perl -0pi -e 's{^}{/// <reference lib="esnext.disposable" />\n}' "$dts"
    perl -pi -e 's/(?<=[(,] |\()(?!module_or_path)([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?=\??: )/$1 =~ s{_([a-z0-9])}{\u$1}gr/ge' "$dts"
  done

  # The raw exports' types (`*_bg.wasm.d.ts`) are not part of the API.
  rm -f "$dir"/bundler/*_bg.wasm.d.ts "$dir"/web/*_bg.wasm.d.ts
  # init()'s result, typed: only its `memory`; the raw exports (typed `any`) are not the API.
  perl -0pi -e 's/export interface InitOutput \{\n.*?\n\}/export interface InitOutput {\n    readonly memory: WebAssembly.Memory;\n}/s' \
    "$dir/web/$name.d.ts"
  ! grep -q "readonly __wbg" "$dir/web/$name.d.ts" ||
    { echo "package: web/$name.d.ts still lists the raw exports" >&2; exit 1; }
  [ ! -e "$dir/bundler/snippets" ] || { echo "package: JS snippets are not handled by $0" >&2; exit 1; }

  # slim/: the web glue without its default URL, so nothing (no bundler, no browser) fetches the
  # .wasm unless the caller passes it to initialize().
  mkdir -p "$dir/slim" "$dir/node" "$dir/workerd"
  local default_url="module_or_path = new URL('../bundler/${name}_bg.wasm', import.meta.url);"
  grep -qF "$default_url" "$dir/web/$name.js" ||
    { echo "package: the web glue's default .wasm URL changed; update $0" >&2; exit 1; }
  local refuse="throw new TypeError('mg-core slim: pass the .wasm to initialize(); it is never fetched by itself');"
  sed "s|$default_url|$refuse|" "$dir/web/$name.js" >"$dir/slim/$name.js"
  ! grep -q "_bg.wasm" "$dir/slim/$name.js" ||
    { echo "package: slim/$name.js still names the .wasm" >&2; exit 1; }

  # inline/ (the .wasm inlined as base64, an ES module) and node/index.cjs (CommonJS) for what cannot
  # load a .wasm file (inline.mjs); package.json's conditions choose them.
  mkdir -p "$dir/inline"
  local glue
  glue=$(mktemp -d)
  wasm-bindgen "$wasm" --target nodejs --out-dir "$glue" --out-name "$name"
  printf '%s\n' "$guard" >>"$glue/$name.js"
  node "$src/inline.mjs" "$dir/bundler/${name}_bg.wasm" "$glue/$name.js" "$dir" "$name"
  rm -rf "$glue"

  # Resolvers that ignore `exports` (Parcel's default, node10) find a subpath's folder: its own
  # package.json names the same builds the root's fields do (type: module, as the root's).
  [ "$2" = . ] || node -e '
    const [out, name] = process.argv.slice(1);
    require("fs").writeFileSync(`${out}/package.json`, JSON.stringify({
      type: "module",
      main: "./node/index.cjs",
      module: "./inline/index.js",
      types: `./bundler/${name}.d.ts`,
    }, null, 2) + "\n");
  ' "$dir" "$name"

  for t in slim.js:slim/index.js slim.d.ts:slim/index.d.ts node.js:node/index.js \
    node.d.ts:node/index.d.ts inline.js:inline/index.js workerd.js:workerd/index.js; do
    sed -e "s|__NAME__|$name|g" -e "s|__PKG__|$pkg|g" "$src/templates/${t%%:*}" >"$dir/${t#*:}"
  done
  # The CommonJS build's types, as a CommonJS declaration file (TypeScript's node16/nodenext under a
  # CommonJS project reads a .d.ts of this `type: module` package as ESM, and refuses `require`):
  # the bundler build's declarations, the same API.
  cp "$dir/bundler/$name.d.ts" "$dir/node/index.d.cts"
}

part "$raw/mg_core.wasm" . mg_core
part "$raw/mg_core_graphics.wasm" graphics mg_core_graphics graphics
# The same graphics built with wasm SIMD (simd128): the same API, for engines that validate SIMD.
part "$raw/mg_core_graphics_simd.wasm" graphics/simd mg_core_graphics_simd graphics/simd
part "$raw/mg_core_status.wasm" status mg_core_status status

node -e '
  const fs = require("fs");
  const [template, out, version] = process.argv.slice(1);
  const pkg = JSON.parse(fs.readFileSync(template, "utf8"));
  pkg.version = version;
  fs.writeFileSync(out, JSON.stringify(pkg, null, 2) + "\n");
' "$src/package.json" "$out/package.json" "$version"
cp "$src/README.md" "$out/README.md"
# mg-core/react: hand-written (no wasm of its own; React is a peer dependency).
cp -r "$src/react" "$out/react"
# The CommonJS side of mg-core/react and of each part's web and slim entries.
node "$src/commonjs.mjs" "$out" .:mg_core graphics:mg_core_graphics graphics/simd:mg_core_graphics_simd status:mg_core_status
# The types of the .wasm subpaths (a URL, where a bundler gives one).
cp "$src/wasm.d.ts" "$src/wasm.d.cts" "$out/"

rm -f mg-core-*.tgz
npm pack ./pkg --silent >/dev/null
ls -l "mg-core-$version.tgz" | awk '{ print "package: " $NF " (" $5 " bytes)" }'
