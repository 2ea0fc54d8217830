#!/usr/bin/env bash
# Bounded soak of the server under hostile traffic (docs/quality.md), 127.0.0.1 only.
# Starts mg-server as it runs behind a proxy (TRUSTED_PROXIES=127.0.0.1/32, default limits, SQLite,
# the identity emulator) and runs benches/examples/soak.rs against it for a bounded time: invented
# HTTP methods, ADDRESSES client addresses through X-Forwarded-For, junk logout floods, idle and
# half-open connections, silent connections from one address, a flood of first requests for a
# cold document, next to a /health probe and full sign-ins. Prints RSS before/after and the
# /health percentiles during, and fails when a target is missed:
#   RSS growth < 20 MB, /health p99 < SOAK_P99_LIMIT_MS (20), every legitimate sign-in completes.
#   usage: [PROFILE=release|debug] [ADDRESSES=50000] [SOAK_PORT=3994] [LOGOUT_FLOOD=0]
#          [SERVER_BIN=an earlier mg-server, to compare] benches/soak.sh [seconds, default 120]
# `make test` runs a short form: PROFILE=debug benches/soak.sh 25 (scripts/test-all.sh).
set -euo pipefail

DURATION="${1:-120}"
PROFILE="${PROFILE:-release}"
PORT="${SOAK_PORT:-3994}"
P99_LIMIT_MS="${SOAK_P99_LIMIT_MS:-20}"
RSS_LIMIT_KIB=$((20 * 1024))
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

if [ "$PROFILE" = release ]; then
    (cd "$ROOT" && cargo build --release -q -p mg-server --bin mg-server && cargo build --release -q -p mg-benches --example soak)
else
    # One invocation over the workspace with an example, through the wrapper the test build uses
    # (scripts/cargo-linted.sh): cargo resolves features as that build does, so after the test suite
    # (`make test`) nothing is compiled again.
    (cd "$ROOT" && scripts/cargo-linted.sh build -q --workspace --bin mg-server --example soak)
fi
BIN="$TARGET/$PROFILE"

mkdir -p "$WORK/dist"
echo '<!doctype html><title>soak</title>' >"$WORK/dist/index.html"
# A large text document for the cold-render flood (every request for it arrives before it was
# ever rendered): about 2 MB, as a full docs bundle could be.
head -c 2000000 < <(yes 'The mg docs, every page, for agents: deploy, functions, sites, queues.') \
    >"$WORK/dist/llms-full.txt"
# Behind a proxy the emulator runs only when asked for (IDENTITY_EMULATOR=on): the soak's
# sign-ins go through it.
HOST=127.0.0.1 PORT="$PORT" DATA_DIR="$WORK" STATIC_DIR="$WORK/dist" RUST_LOG=error \
    TRUSTED_PROXIES=127.0.0.1/32 IDENTITY_EMULATOR=on "${SERVER_BIN:-$BIN/mg-server}" &
SERVER_PID=$!
for _ in $(seq 1 200); do
    curl -fs "http://127.0.0.1:$PORT/health" >/dev/null 2>&1 && break
    sleep 0.05
done
curl -fs "http://127.0.0.1:$PORT/health" >/dev/null || { echo "mg-server did not start" >&2; exit 1; }

echo "soak: ${DURATION}s against mg-server ($PROFILE build) on 127.0.0.1:$PORT, ${ADDRESSES:-50000} forwarded addresses"
TARGET="http://127.0.0.1:$PORT" SERVER_PID="$SERVER_PID" SECONDS="$DURATION" \
    "$BIN/examples/soak" | tee "$WORK/out"

value() { tr ' ' '\n' <"$WORK/out" | awk -F= -v key="$1" '$1 == key { print $2; exit }'; }
growth="$(value rss_growth_kib)"
p99="$(value health_p99_ms)"
tried="$(value sign_ins_tried)"
done_="$(value sign_ins_done)"
health_failures="$(value health_failures)"
cold_flood="$(value cold_flood)"
cold_served="$(value cold_served)"
kill -0 "$SERVER_PID" 2>/dev/null || { echo "FAIL: the server died during the soak" >&2; exit 1; }

failed=0
check() {
    if [ "$1" = ok ]; then echo "  ok    $2"; else echo "  FAIL  $2"; failed=1; fi
}
echo "targets:"
check "$([ "$growth" -lt "$RSS_LIMIT_KIB" ] && echo ok)" "RSS growth $((growth / 1024)) MB ($growth KiB) < 20 MB"
check "$(awk -v p="$p99" -v l="$P99_LIMIT_MS" 'BEGIN { if (p < l) print "ok" }')" "/health p99 ${p99} ms < ${P99_LIMIT_MS} ms"
check "$([ "$health_failures" = 0 ] && echo ok)" "/health failures: $health_failures"
check "$([ "$tried" -gt 0 ] && [ "$tried" = "$done_" ] && echo ok)" "legitimate sign-ins completed: $done_ of $tried"
check "$([ "$cold_served" = "$cold_flood" ] && echo ok)" "cold-render flood answered: $cold_served of $cold_flood"
exit "$failed"
