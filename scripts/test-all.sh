#!/usr/bin/env bash
# Runs every suite of the project, keeps going after a failure, and ends with one summary line.
# Called by `make test` after the tools, wasm package, npm packages and app build are in place.
set -uo pipefail
cd "$(dirname "$0")/.."

export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
passed=() failed=()

suite() {
  local name="$1"; shift
  printf '\n\033[1;34m==> %s\033[0m  (%s)\n' "$name" "$*"
  local start=$SECONDS
  if "$@"; then
    passed+=("$name")
    printf '\033[1;32m--- %s passed in %ss\033[0m\n' "$name" $((SECONDS - start))
  else
    failed+=("$name")
    printf '\033[1;31m--- %s FAILED in %ss\033[0m\n' "$name" $((SECONDS - start))
  fi
}

if [ -n "${MG_TEST_POSTGRES_URL:-}" ]; then
  echo "PostgreSQL: MG_TEST_POSTGRES_URL is set; server tests run on SQLite and on PostgreSQL."
elif [ -n "${CI:-}" ]; then
  echo "PostgreSQL: MG_TEST_POSTGRES_URL is not set in CI; the *_on_postgres tests will fail." >&2
else
  echo "PostgreSQL: MG_TEST_POSTGRES_URL is not set; server tests run on SQLite only (CI runs both)."
fi

# The repository explains itself: no path outside it, no tracker numbers, a short README, live doc links.
suite "standalone" scripts/check-standalone.sh
# No source or test file over 600 lines (generated ones aside).
suite "file-size" scripts/check-file-size.sh
suite "rust-fmt" cargo fmt --all -- --check
suite "clippy-host" cargo clippy --workspace --all-targets --quiet -- -D warnings
# core-wasm's bindings come in two cargo features (machines, the default; graphics); lint and test both.
suite "clippy-wasm32" cargo clippy -p mg-core --target wasm32-unknown-unknown --all-targets --all-features --quiet -- -D warnings
# The production build (no identity emulator): clippy, and its binary refusing to start without
# IDENTITY_BASE_URL. A second, debug compile of the server crate only.
suite "server-production" scripts/check-production-build.sh
suite "cargo-test" cargo test --workspace
# Hostile traffic beside normal traffic for 25 s (the debug build cargo-test made): RSS growth,
# /health p99 and lost sign-ins against their targets. The full form: benches/soak.sh [seconds]. Its
# /health p99 limit is looser than the 20 ms target, which docs/performance.md records for the
# release build: an unoptimised build on a shared 2-core machine measured 11-27 ms here while other
# work ran. RSS growth, health failures and lost sign-ins (what the hostile traffic would break)
# keep their strict limits.
suite "soak-short" env PROFILE=debug SOAK_P99_LIMIT_MS=100 benches/soak.sh 25
# core-wasm's bindings in real Chromium, headless: cargo runs each wasm test binary through the
# wasm-bindgen CLI's own test runner (Cargo.lock's version, which the package build installs) and
# Debian's chromedriver ($CHROMEDRIVER).
WASM_TEST=(env CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
  cargo test -p mg-core --target wasm32-unknown-unknown --all-features)
suite "wasm-browser-test" "${WASM_TEST[@]}"
# The same browser tests on the simd128 build of the graphics package (glam's SIMD path, the build the
# app loads where wasm SIMD validates), in its own target directory as `make` builds it.
suite "wasm-browser-test-simd128" env CARGO_TARGET_DIR="$PWD/target/simd128" RUSTFLAGS="-C target-feature=+simd128" \
  "${WASM_TEST[@]}"
# The npm package (make package-fixtures installed its tarball into examples/): its .d.ts against
# core-wasm/api/, the .wasm gzip budgets, 100,000 create/dispose per class, and the fixture projects
# (Node ESM and require(), Deno, Bun, Vite with and without vite-plugin-wasm, webpack 5, a module
# Worker) in their runtimes, the browser ones in Chromium and in Firefox.
suite "package-matrix" node examples/run-matrix.mjs
suite "app-typecheck" npm --prefix app run --silent typecheck
suite "app-lint" npm --prefix app run --silent lint
suite "app-unit" npm --prefix app run --silent test
suite "e2e" npm --prefix app run --silent e2e

echo
[ ${#failed[@]} -eq 0 ] || echo "failed suites: ${failed[*]}"
echo "ran: ${passed[*]} ${failed[*]}"
echo "suites: ${#passed[@]} passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
