#!/usr/bin/env bash
# scripts/npm-ci.sh DIR [npm ci options]: `npm ci` in DIR, through a copy kept on this machine.
#
# The packaging fixtures' tools (examples/, 1.6 GB in 67,000 files) take `npm ci` about 110 CPU
# seconds to unpack even from npm's own cache, on every fresh clone. What `npm ci` makes depends only
# on the lockfile, package.json, Node and npm, so the node_modules folder it made is kept, untouched,
# under a key of those four (in $MG_NODE_MODULES_CACHE, default ~/.cache/mg-web/node_modules), and a
# later install with the same key copies it (a plain copy, not links: nothing a run writes reaches
# the kept one). A new lockfile, Node or npm installs anew and replaces the kept copy of DIR.
# MG_NODE_MODULES_CACHE=0 always runs `npm ci`.
set -euo pipefail
dir="$1"
shift
cd "$dir"

cache_root="${MG_NODE_MODULES_CACHE:-$HOME/.cache/mg-web/node_modules}"
if [ "$cache_root" = 0 ]; then
  npm ci "$@"
  exit 0
fi

# The folder's name (app, examples) keeps one kept copy per project folder.
name=$(basename "$PWD")
key=$({ cat package-lock.json package.json; node --version; npm --version; printf '%s\n' "$@"; } |
  sha256sum | cut -c1-16)
kept="$cache_root/$name-$key"

if [ -f "$kept/complete" ]; then
  echo "npm ci: copying the node_modules kept for this lockfile ($kept)"
  rm -rf node_modules node_modules.copying
  cp -a "$kept/node_modules" node_modules.copying
  mv node_modules.copying node_modules
  exit 0
fi

npm ci "$@"
# Kept for the next install with this key; the older copies of this folder go (one per folder).
mkdir -p "$cache_root"
rm -rf "$kept.tmp"
mkdir "$kept.tmp"
if cp -a node_modules "$kept.tmp/node_modules" && touch "$kept.tmp/complete"; then
  find "$cache_root" -mindepth 1 -maxdepth 1 -name "$name-*" ! -name "$name-$key.tmp" -exec rm -rf {} +
  mv "$kept.tmp" "$kept"
else
  # A full disk costs only the copy: this install already succeeded.
  rm -rf "$kept.tmp"
  echo "npm ci: could not keep a copy of node_modules in $cache_root (the install itself succeeded)" >&2
fi
