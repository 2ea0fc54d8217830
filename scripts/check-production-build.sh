#!/usr/bin/env bash
# The production build of the server (without the `emulator` cargo feature, what `make
# server-production` makes and deploy/ installs): lint it, and check that its binary refuses to
# start without an identity provider or with the emulator asked for, the two things only this build
# does (the rest of its code is the default build's, which `cargo test` runs).
# Debug profile in target/debug, to share the dependencies `cargo test` builds: without the
# emulator's crate only the crates above the dependencies compile again. It writes
# target/debug/mg-server; the browser tests run their own copy of the test build's (target/e2e/).
set -euo pipefail
cd "$(dirname "$0")/.."

# Linted as it compiles (scripts/cargo-linted.sh), sharing the test build's compiles of everything
# below the shell crate: the library and the binary (the unit tests are the default build's, which
# the clippy-host suite lints).
scripts/cargo-linted.sh lint build -p mg-server --no-default-features --bin mg-server

data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT

# expect_refusal <what the line must say> [VAR=value ...]: the binary exits 1 with one line.
expect_refusal() {
  local expected="$1"; shift
  local out status
  set +e
  out="$(env -u IDENTITY_BASE_URL -u IDENTITY_EMULATOR -u PUBLIC_URL DATA_DIR="$data" HOST=127.0.0.1 PORT=0 "$@" \
    timeout 20 target/debug/mg-server 2>&1)"
  status=$?
  set -e
  if [ "$status" -ne 1 ] || [ "$(printf '%s\n' "$out" | grep -c '^mg-server: ')" -ne 1 ] \
    || ! printf '%s' "$out" | grep -q "$expected"; then
    echo "production binary: expected exit 1 and one 'mg-server: ...$expected...' line; got exit $status:" >&2
    printf '%s\n' "$out" >&2
    return 1
  fi
  echo "refused as expected: $(printf '%s\n' "$out" | grep '^mg-server: ')"
}

expect_refusal "Set IDENTITY_BASE_URL and IDENTITY_PROJECT_ID"
expect_refusal "Unset IDENTITY_EMULATOR" IDENTITY_EMULATOR=on \
  IDENTITY_BASE_URL=https://id.example IDENTITY_PROJECT_ID=P1
expect_refusal "Set PUBLIC_URL" \
  IDENTITY_BASE_URL=https://id.example IDENTITY_PROJECT_ID=P1
