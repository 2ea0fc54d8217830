#!/usr/bin/env bash
# Starts the real server binary for the end-to-end tests: the built app, a fresh SQLite database.
set -euo pipefail
port="${1:?port}"
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${MG_SERVER_BIN:-$here/../target/debug/mg-server}"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
RATE_LIMIT_PER_MINUTE="${RATE_LIMIT_PER_MINUTE:-100000}" PORT="$port" DATA_DIR="$data" STATIC_DIR="$here/dist" RUST_LOG="${RUST_LOG:-warn}" "$bin"
