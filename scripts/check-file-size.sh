#!/usr/bin/env bash
# No source or test file over 600 lines: a file that long holds more than one subject, so split it by
# subject. Counts every tracked file whose name ends in a code extension (Rust, TypeScript,
# JavaScript, CSS, HTML, SQL, shell), less the generated ones, which no one edits by hand:
# app/common/http-types.ts (server/src/http_contract.rs writes it) and core-wasm/api/*.d.ts
# (examples/package-checks.mjs --update writes them). Data, documents and lock files are not code.
# Prints each file over the limit and exits non-zero if there is any.
set -uo pipefail
cd "$(dirname "$0")/.."

limit=600
code=('*.rs' '*.ts' '*.tsx' '*.mts' '*.js' '*.mjs' '*.cjs' '*.css' '*.html' '*.sql' '*.sh')
generated=(':(exclude)app/common/http-types.ts' ':(exclude)core-wasm/api/*.d.ts')

over=0
while IFS= read -r -d '' file; do
  [ -f "$file" ] || continue
  lines=$(wc -l <"$file")
  if [ "$lines" -gt "$limit" ]; then
    echo "$file: $lines lines; at most $limit (split it by subject)" >&2
    over=$((over + 1))
  fi
done < <(git ls-files -z -- "${code[@]}" "${generated[@]}")

if [ "$over" -gt 0 ]; then
  echo "check-file-size: $over file(s) over $limit lines" >&2
  exit 1
fi
echo "check-file-size: no source or test file over $limit lines"
