#!/usr/bin/env bash
# No source or test file over 400 lines: a file that long usually holds more than one subject, so
# split it by subject. The exceptions are named, each with its reason, in
# scripts/file-size-exceptions.txt; even they stop at 600, and a listed file back under 400 must
# leave the list. Counts every tracked file whose name ends in a code extension (Rust, TypeScript,
# JavaScript, CSS, HTML, SQL, shell), less the generated ones, which no one edits by hand:
# app/common/http-types.ts (server/src/http_contract.rs writes it) and core-wasm/api/*.d.ts
# (examples/package-checks.mjs --update writes them). Data, documents and lock files are not code.
# Prints each file over its limit and exits non-zero if there is any.
set -uo pipefail
cd "$(dirname "$0")/.."

limit=400
hard_limit=600
exceptions_file=scripts/file-size-exceptions.txt
code=('*.rs' '*.ts' '*.tsx' '*.mts' '*.js' '*.mjs' '*.cjs' '*.css' '*.html' '*.sql' '*.sh')
generated=(':(exclude)app/common/http-types.ts' ':(exclude)core-wasm/api/*.d.ts')

declare -A excepted=()
exceptions=0
while read -r path reason; do
  case "$path" in '' | '#'*) continue ;; esac
  [ -n "$reason" ] || { echo "$exceptions_file: $path has no reason" >&2; exit 1; }
  excepted["$path"]=1
  exceptions=$((exceptions + 1))
done <"$exceptions_file"

over=0
while IFS= read -r -d '' file; do
  [ -f "$file" ] || continue
  lines=$(wc -l <"$file")
  if [ -n "${excepted[$file]:-}" ]; then
    unset 'excepted[$file]'
    if [ "$lines" -gt "$hard_limit" ]; then
      echo "$file: $lines lines; at most $hard_limit even as an exception (split it by subject)" >&2
      over=$((over + 1))
    elif [ "$lines" -le "$limit" ]; then
      echo "$file: $lines lines, within $limit: take it off $exceptions_file" >&2
      over=$((over + 1))
    fi
  elif [ "$lines" -gt "$limit" ]; then
    echo "$file: $lines lines; at most $limit (split it by subject, or name it and why in $exceptions_file)" >&2
    over=$((over + 1))
  fi
done < <(git ls-files -z -- "${code[@]}" "${generated[@]}")

for stale in "${!excepted[@]}"; do
  echo "$exceptions_file: $stale is not a tracked code file" >&2
  over=$((over + 1))
done

if [ "$over" -gt 0 ]; then
  echo "check-file-size: $over problem(s)" >&2
  exit 1
fi
echo "check-file-size: no source or test file over $limit lines but the $exceptions named in $exceptions_file"
