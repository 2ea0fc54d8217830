#!/usr/bin/env bash
# cargo with clippy's lints in the compile itself: clippy-driver wraps rustc for this workspace's own
# crates (RUSTC_WORKSPACE_WRAPPER, what `cargo clippy` sets, but for any cargo command), so one build
# both compiles the tests and lints them, where `cargo clippy` would type-check every crate a second
# time. The dependencies are compiled by plain rustc, as without it. Lint findings are warnings here
# (a lint never stops the tests from building); `lint` below fails on any.
#   scripts/cargo-linted.sh test --workspace --no-run          the test build, linted
#   scripts/cargo-linted.sh lint test --workspace --all-targets --no-run
#                                                              the same, failing on any warning (cargo
#                                                              replays a fresh crate's stored warnings,
#                                                              so this costs only what is not built yet)
# Every build of one target directory uses it alike: a crate compiled with another wrapper compiles
# again (cargo keeps the wrapper in its fingerprint).
set -euo pipefail
RUSTC_WORKSPACE_WRAPPER="$(rustup which clippy-driver)"
export RUSTC_WORKSPACE_WRAPPER
if [ "${1:-}" != lint ]; then
  exec cargo "$@"
fi
shift
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
status=0
cargo "$@" 2>&1 | tee "$out" || status=1
# Cargo ends the output of every crate with diagnostics (compiled now or replayed) with a line
# "warning: `crate` (target) generated N warnings". (--message-format=short would be easier to read
# here, but it changes rustc's arguments, so every crate would compile again.)
if [ "$status" -eq 0 ] && grep -qE '^warning: `[^`]+` \([^)]+\) generated [0-9]+ warnings?' "$out"; then
  echo "lint: the build above has warnings" >&2
  status=1
fi
exit "$status"
