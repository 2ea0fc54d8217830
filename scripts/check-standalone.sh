#!/usr/bin/env bash
# Keeps the repository readable by someone who has only the repository:
#   1. no file refers to a path outside it (a relative path climbing above the root, a relative
#      `shared/` path that resolves to nothing here, or the name of a planning note kept elsewhere);
#   2. no comment or document cites a tracker number of this project (the word issue and a number,
#      or a number after "(#"): say why instead. Upstream references written as owner/repo#N are fine;
#   3. README.md stays a page for users: at most 250 lines;
#   4. every relative link in README.md and docs/*.md points at a file that exists, and at a heading
#      of that file when it names one.
# Prints each failure as file:line and exits non-zero if there is any. Lock files and this script are
# not searched. Applied migrations (platform/migrations/) are left out of check 2: every database that
# ran one stores its checksum, so its text, comments included, is never edited.
set -uo pipefail
cd "$(dirname "$0")/.."

self="scripts/check-standalone.sh"
failures=0
fail() {
  printf '%s\n' "$*" >&2
  failures=$((failures + 1))
}

# Tracked text files, less the lock files and this script, as git-grep pathspecs.
not_searched=(":(exclude)Cargo.lock" ":(exclude)**/package-lock.json" ":(exclude)$self")

# 1a. Relative paths that climb above the repository root. The Makefile is left out: it hands paths
# to tools that run inside a crate (`wasm-pack build core-wasm --out-dir ../pkg` is core-wasm's ../).
while IFS=: read -r file line text; do
  dir=$(dirname "$file")
  depth=0
  [ "$dir" = . ] || depth=$(awk -F/ '{ print NF }' <<<"$dir")
  while read -r climb; do
    ups=$(grep -o '\.\./' <<<"$climb" | wc -l)
    if [ "$ups" -gt "$depth" ]; then
      fail "$file:$line: '$climb' leaves the repository"
    fi
  done < <(grep -oE '(\.\./)+' <<<"$text")
done < <(git grep -nIE '(^|[^.])(\.\./)+[A-Za-z0-9_@-]' -- . "${not_searched[@]}" ':(exclude)Makefile')

# 1b. A relative `shared/` path must name something in the repository (resolved from the file's
# directory, with the extensions a TypeScript import leaves out).
resolves() {
  local base="$1" ext
  for ext in "" .ts .tsx .js .mjs .json .d.ts /index.ts; do
    [ -e "$base$ext" ] && return 0
  done
  return 1
}
while IFS=: read -r file line text; do
  dir=$(dirname "$file")
  while read -r ref; do
    if ! resolves "$dir/$ref"; then
      fail "$file:$line: '$ref' is not a path in this repository"
    fi
  done < <(grep -oE '(\.\./)+shared/[A-Za-z0-9_./@-]*[A-Za-z0-9_@-]' <<<"$text")
done < <(git grep -nIE '\.\./shared/' -- . "${not_searched[@]}")

# 1c. Planning notes that live outside the repository, by name (the docs here are docs/*.md, lower case).
while IFS= read -r hit; do
  fail "$hit  <- names a document outside the repository; point at docs/ instead"
done < <(git grep -nIE '\b(ARCHITECTURE|IDENTITY|QUALITY|STYLE|TOOLCHAIN)\.md\b|product-spec\.md|design-card\.md|/work/shared' -- . "${not_searched[@]}")

# 2. Tracker numbers of this project.
while IFS= read -r hit; do
  fail "$hit  <- cites a tracker number; say why instead"
done < <(git grep -nIE '\b[Ii]ssues?[ -]#?[0-9]+|\(#[0-9]+\)|\b(PR|[Pp]ull request) #?[0-9]+' \
  -- . "${not_searched[@]}" ':(exclude)platform/migrations/**')

# 3. The README is for users.
readme_lines=$(wc -l <README.md)
if [ "$readme_lines" -gt 250 ]; then
  fail "README.md: $readme_lines lines; at most 250 (move detail into docs/)"
fi

# 4. Relative links in README.md and docs/*.md.
slug() {
  # GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens.
  tr '[:upper:]' '[:lower:]' | sed -E 's/[^a-z0-9 _-]//g; s/ /-/g'
}
has_anchor() {
  local target="$1" anchor="$2"
  grep -E '^#{1,6} ' "$target" | sed -E 's/^#{1,6} +//' | slug | grep -qx -- "$anchor"
}
for doc in README.md docs/*.md; do
  [ -f "$doc" ] || continue
  dir=$(dirname "$doc")
  while IFS=: read -r line link; do
    case "$link" in
      http://* | https://* | mailto:*) continue ;;
    esac
    path="${link%%#*}"
    anchor=""
    [ "$path" = "$link" ] || anchor="${link#*#}"
    if [ -z "$path" ]; then
      target="$doc"
    else
      target="$dir/$path"
    fi
    if [ ! -e "$target" ]; then
      fail "$doc:$line: link '$link' points at nothing ($target)"
    elif [ -n "$anchor" ] && [ -f "$target" ] && ! has_anchor "$target" "$anchor"; then
      fail "$doc:$line: link '$link': no heading '#$anchor' in $target"
    fi
  done < <(grep -noE '\]\([^) ]+\)' "$doc" | sed -E 's/^([0-9]+):\]\((.*)\)$/\1:\2/')
done

if [ "$failures" -gt 0 ]; then
  echo "check-standalone: $failures problem(s)" >&2
  exit 1
fi
echo "check-standalone: the repository stands alone (README.md $readme_lines lines)"
