#!/usr/bin/env bash
# Compares two mg-server binaries (e.g. two builds that differ in one setting) on SQLite:
# POST /api/auth/current-user (64 connections: JWT check + read) and POST /api/auth/update-profile
# (8 connections, a new name each request: one committed write each), in ROUNDS interleaved rounds.
# Used for the cost of `synchronous = FULL` (docs/performance.md): build once as is, once with
# NORMAL in platform/src/db/mod.rs, copy each binary aside, and pass both.
#   usage: [ROUNDS=3] [SECONDS_PER_RUN=5] benches/compare-writes.sh BINARY_A BINARY_B
set -euo pipefail
A="${1:?binary A}"
B="${2:?binary B}"
ROUNDS="${ROUNDS:-3}"
DURATION="${SECONDS_PER_RUN:-5}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
(cd "$ROOT" && cargo build --release -q -p mg-benches --example bench_identity)
mkdir -p "$ROOT/target"
WORK="$(mktemp -d "$ROOT/target/compare-writes.XXXXXX")"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/dist" "$WORK/a" "$WORK/b"
echo '<!doctype html><title>bench</title>' >"$WORK/dist/index.html"
PORT=3991 "$TARGET/release/examples/bench_identity" >"$WORK/token" & PIDS+=($!)
start() {
    HOST=127.0.0.1 PORT="$2" DATA_DIR="$WORK/$3" STATIC_DIR="$WORK/dist" RUST_LOG=error \
        IDENTITY_PROJECT_ID=Pbench IDENTITY_BASE_URL=http://127.0.0.1:3991 \
        RATE_LIMIT_PER_MINUTE=100000000 "$1" & PIDS+=($!)
}
start "$A" 3992 a
start "$B" 3993 b
for _ in $(seq 1 100); do
    [ -s "$WORK/token" ] && curl -fs http://127.0.0.1:3992/health >/dev/null 2>&1 &&
        curl -fs http://127.0.0.1:3993/health >/dev/null 2>&1 && break
    sleep 0.05
done
TOKEN="$(head -n1 "$WORK/token")"
cat >"$WORK/read.lua" <<'LUA'
wrk.method = "POST"
wrk.body = "{}"
wrk.headers["Content-Type"] = "application/json"
LUA
cat >"$WORK/write.lua" <<'LUA'
local n = 0
wrk.headers["Content-Type"] = "application/json"
request = function()
  n = n + 1
  return wrk.format("POST", nil, nil, '{"name":"Bench ' .. n .. '"}')
end
LUA
measure() {
    local connections="$1"; shift
    wrk -t2 -c"$connections" -d"${DURATION}s" --latency "$@" | awk '
        /Non-2xx/ { bad = $NF }
        /^Requests\/sec:/ { rps = $2 }
        $1 == "99%" { p99 = $2 }
        END { if (bad > 0) { print "non-2xx answers: " bad > "/dev/stderr"; exit 1 }
              printf "%.0f %s", rps, p99 }'
}
echo "wrk, ${DURATION}s per run, $ROUNDS interleaved rounds; A=$A B=$B"
for round in $(seq 1 "$ROUNDS"); do
    for side in a b; do
        port=$([ "$side" = a ] && echo 3992 || echo 3993)
        read_result="$(measure 64 -s "$WORK/read.lua" -H "Authorization: Bearer $TOKEN" \
            "http://127.0.0.1:$port/api/auth/current-user")"
        write_result="$(measure 8 -s "$WORK/write.lua" -H "Authorization: Bearer $TOKEN" \
            "http://127.0.0.1:$port/api/auth/update-profile")"
        echo "round $round $side: current-user req/s p99 = $read_result | update-profile req/s p99 = $write_result"
    done
done
