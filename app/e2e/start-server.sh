#!/usr/bin/env bash
# Starts the real server binary for the end-to-end tests: the built app, a fresh SQLite database.
# Usage: start-server.sh PORT [MODE]
#   sanctified    (default) sign-in on, with the embedded identity emulator
#   open          SANCTIFIED=false: no sign-in, /auth/callback and /home do not exist
#   unconfigured  sanctified, but an external identity service without a project id
#                 (IDENTITY_BASE_URL points at a closed port): the app shows only its configuration notice
#   ethereal, telekinesis, metagenesis
#                 sanctified with the emulator, DEPLOYMENT_TYPE set to that type (metagenesis with
#                 the apotheosis flag off)
#   ethereal-flag an apotheosis deployment whose flags say ethereal
# The sanctified server also serves the graphics harness page (/graphics.html, its own build in
# app/dist-harness, `make app/dist-harness/graphics.html`, which the production build in app/dist does
# not contain): its files are copied beside app/dist's into the server's temporary static folder, so
# the graphics spec needs no server of its own.
# E2E_STATIC_DIR serves another build than app/dist (e.g. `vite build --outDir /tmp/x`, to try a change
# without touching the dist/ that other runs on this checkout are serving).
set -euo pipefail
port="${1:?port}"
mode="${2:-sanctified}"
case "$mode" in
  sanctified) ;;
  open) export SANCTIFIED=false ;;
  unconfigured)
    export SANCTIFIED=true IDENTITY_BASE_URL=http://127.0.0.1:9
    unset IDENTITY_PROJECT_ID
    ;;
  ethereal | telekinesis) export DEPLOYMENT_TYPE="$mode" ;;
  metagenesis) export DEPLOYMENT_TYPE=metagenesis DEPLOYMENT_FLAGS='{"apotheosis":false}' ;;
  ethereal-flag) export DEPLOYMENT_TYPE=apotheosis DEPLOYMENT_FLAGS='{"ethereal":true}' ;;
  *)
    echo "start-server.sh: unknown mode '$mode' (sanctified, open, unconfigured, ethereal, telekinesis, metagenesis or ethereal-flag)" >&2
    exit 2
    ;;
esac
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${MG_SERVER_BIN:-$here/../target/debug/mg-server}"
root="$(mktemp -d)"
data="$root/data"
mkdir "$data"
# Playwright ends the run with SIGTERM (gracefulShutdown in playwright.config.ts): stop the server,
# wait for it, and remove its folder (database and static copy), so a run leaves no process and no folder behind.
pid=""
cleanup() {
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$root"
}
trap cleanup EXIT
trap 'exit 143' TERM INT
static="${E2E_STATIC_DIR:-$here/dist}"
if [ "$mode" = sanctified ]; then
  harness="${E2E_HARNESS_DIR:-$here/dist-harness}"
  [ -f "$harness/graphics.html" ] || { echo "start-server.sh: no $harness/graphics.html (make app/dist-harness/graphics.html)" >&2; exit 1; }
  mkdir "$root/static"
  cp -R "$static/." "$root/static/"
  # The two builds share some chunks (same name, same bytes): app/dist's copy stays.
  cp -Rn "$harness/." "$root/static/"
  static="$root/static"
fi
# The status operators spec signs in as this address, which the emulator makes a status operator.
# The webhooks spec's receiver listens on 127.0.0.1, which webhooks may reach only when allowed.
STATUS_WEBHOOKS_ALLOW_PRIVATE="${STATUS_WEBHOOKS_ALLOW_PRIVATE:-true}" \
  IDENTITY_EMULATOR_OPERATORS="${IDENTITY_EMULATOR_OPERATORS:-status-operator@e2e.example}" \
  RATE_LIMIT_PER_MINUTE="${RATE_LIMIT_PER_MINUTE:-100000}" PORT="$port" DATA_DIR="$data" STATIC_DIR="$static" RUST_LOG="${RUST_LOG:-warn}" "$bin" &
pid=$!
wait "$pid"
