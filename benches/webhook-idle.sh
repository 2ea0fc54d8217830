#!/usr/bin/env bash
# The webhook worker at rest: the server's CPU while 100 webhooks point at a dead receiver (a
# closed port on 127.0.0.1: every attempt is refused at once), dead for a while (each at the
# longest pause, their next attempts spread over the next 30 minutes), with QUEUED deliveries
# waiting between them, beside a day of delivered ones (a component change every 5 minutes for
# each webhook). Seeds the tables directly (the operators' cap of 20 webhooks does not apply), starts
# mg-server with its status rounds every 30 s, lets it settle (WARMUP seconds: the due deliveries
# are tried and their receivers paused), then reads the process's CPU time over SECONDS and prints
# it as a share of one core. ENGINE=postgres uses a fresh database on MG_TEST_POSTGRES_URL's server.
# WEBHOOKS=0 seeds nothing: the server's idle cost without the webhooks, to compare.
#   usage: [PROFILE=debug|release] [ENGINE=sqlite|postgres] [QUEUED=10000] [WEBHOOKS=100] [WARMUP=60]
#          [IDLE_PORT=3995] benches/webhook-idle.sh [seconds, default 120]
set -euo pipefail

SECONDS_MEASURED="${1:-120}"
PROFILE="${PROFILE:-debug}"
ENGINE="${ENGINE:-sqlite}"
QUEUED="${QUEUED:-10000}"
WEBHOOKS="${WEBHOOKS:-100}"
WARMUP="${WARMUP:-60}"
PORT="${IDLE_PORT:-3995}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${SERVER_BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/$PROFILE/mg-server}"
WORK="$(mktemp -d)"
SERVER_PID=""
PG_DB=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    [ -n "$PG_DB" ] && psql -q "$MG_TEST_POSTGRES_URL" -c "DROP DATABASE IF EXISTS $PG_DB" || true
    rm -rf "$WORK"
}
trap cleanup EXIT
[ -x "$BIN" ] || { echo "no $BIN: build it (make server, or scripts/cargo-linted.sh build -p mg-server)" >&2; exit 1; }

case "$ENGINE" in
sqlite)
    URL="sqlite://$WORK/mg.db?mode=rwc"
    sql() { sqlite3 "$WORK/mg.db"; }
    series() { echo "WITH RECURSIVE s(i) AS (SELECT $1 UNION ALL SELECT i + 1 FROM s WHERE i < $2) SELECT i FROM s"; }
    ;;
postgres)
    : "${MG_TEST_POSTGRES_URL:?set MG_TEST_POSTGRES_URL}"
    PG_DB="webhook_idle_$$"
    psql -q "$MG_TEST_POSTGRES_URL" -c "CREATE DATABASE $PG_DB"
    URL="${MG_TEST_POSTGRES_URL%/*}/$PG_DB"
    sql() { psql -q -tA -v ON_ERROR_STOP=1 "$URL"; }
    series() { echo "SELECT generate_series($1, $2) AS i"; }
    ;;
*) echo "ENGINE is sqlite or postgres" >&2; exit 1 ;;
esac

start() {
    mkdir -p "$WORK/dist"
    echo '<!doctype html><title>idle</title>' >"$WORK/dist/index.html"
    HOST=127.0.0.1 PORT="$PORT" DATA_DIR="$WORK" DATABASE_URL="$URL" STATIC_DIR="$WORK/dist" \
        RUST_LOG=error STATUS_WEBHOOKS_ALLOW_PRIVATE=true INSTANCE_ID=idle "$BIN" &
    SERVER_PID=$!
    for _ in $(seq 1 400); do
        curl -fs "http://127.0.0.1:$PORT/health" >/dev/null 2>&1 && return
        sleep 0.05
    done
    echo "mg-server did not start" >&2
    exit 1
}
stop() {
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}

# Once to migrate, then seed and start again.
start
stop
now=$(($(date +%s) * 1000))
day=$((now - 86400000))
if [ "$WEBHOOKS" = 0 ]; then
    echo "SELECT 1;" > "$WORK/seed.sql"
else {
    echo "BEGIN;"
    for w in $(seq 0 99); do
        # Dead for a while: at the longest pause, the next attempts spread over the next 30 minutes.
        echo "INSERT INTO status_webhooks (id, name, url, format, secret, created_at, created_by, \
                  failures, paused_until) \
              VALUES ('w$w', 'dead $w', 'http://127.0.0.1:9/hook', 'json', 's', $day, 'op', 8, \
                  $((now + w * 18000)));"
    done
    # A day of component changes, each delivered to every webhook.
    echo "INSERT INTO status_component_events (component, seq, state, incident, at, held, created_at) \
          SELECT 'api', i, CASE WHEN i % 2 = 0 THEN 'down' ELSE 'up' END, 'api-' || i, \
              $day + i * 300000, 0, $day + i * 300000 FROM ($(series 1 288)) n;"
    echo "INSERT INTO status_webhook_deliveries (id, webhook_id, event_key, event, body, state, \
              attempts, next_at, created_at, updated_at, last_status) \
          SELECT 'd' || e.i || '-' || w.i, 'w' || w.i, 'component:api:' || e.i, 'component', '{}', 'delivered', \
              1, $day + e.i * 300000, $day + e.i * 300000, $day + e.i * 300000, 200 \
          FROM ($(series 1 288)) e CROSS JOIN ($(series 0 99)) w;"
    # The queue: QUEUED deliveries spread over the webhooks, due now.
    echo "INSERT INTO status_webhook_deliveries (id, webhook_id, event_key, event, body, state, \
              attempts, next_at, created_at, updated_at) \
          SELECT 'q' || i, 'w' || (i % 100), 'q' || i, 'component', '{}', 'pending', 0, $now, \
              $now, $now FROM ($(series 1 "$QUEUED")) n;"
    echo "COMMIT;"
} > "$WORK/seed.sql"
fi
sql < "$WORK/seed.sql"
count() { echo "SELECT COUNT(*) FROM status_webhook_deliveries WHERE $1;" | sql | tr -d ' '; }
echo "webhook-idle: $ENGINE, $PROFILE build, $WEBHOOKS dead webhooks, $(count "state = 'pending'") queued, \
$(count "state = 'delivered'") delivered"

start
sleep "$WARMUP"
ticks() { awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat"; }
hz=$(getconf CLK_TCK)
before=$(ticks)
sleep "$SECONDS_MEASURED"
after=$(ticks)
cpu_s=$(awk -v t=$((after - before)) -v hz="$hz" 'BEGIN { printf "%.2f", t / hz }')
share=$(awk -v t=$((after - before)) -v hz="$hz" -v s="$SECONDS_MEASURED" \
    'BEGIN { printf "%.2f", 100 * t / hz / s }')
attempts=$(echo "SELECT COALESCE(SUM(attempts), 0) FROM status_webhook_deliveries WHERE id LIKE 'q%';" | sql | tr -d ' ')
echo "idle after ${WARMUP}s: ${cpu_s} s of CPU in ${SECONDS_MEASURED} s = ${share} % of one core \
(attempts so far on the queued deliveries: $attempts; still queued: $(count "state = 'pending'"))"
