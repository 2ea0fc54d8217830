#!/usr/bin/env bash
# Load bench of the server (docs/quality.md "Server"): wrk on 127.0.0.1, bounded, one run.
# Compares /health, POST /api/wisdom, POST /api/auth/current-user (valid token, SQLite) and GET /api/status
# (from memory: a full answer, and a poll with the current ETag answered 304) against a bare axum
# handler built in the same run, and prints one table of req/s and p99.
# The machine is shared and noisy, so the endpoints are measured in ROUNDS interleaved rounds
# (bare, then each mg-server endpoint) and the table shows each endpoint's median round; the
# /health ratio is the median of the per-round ratios.
# BASELINE_BIN=<an earlier mg-server binary> also measures that binary's /health and current-user in
# the same rounds (same configuration, its own SQLite) and prints the ratios, to show what a change
# cost on this noisy machine.
# Pages: GET /mg/overview as a browser asks for it (Brotli accepted), and as a 304 revalidation,
# from the built app in PAGES_DIST (default app/dist when it has pages.json, else a fixture: a shell
# and one ~60 KB prerendered /mg/overview); with BASELINE_BIN, that binary's answer to the same
# request too (a binary from before prerendering answers with the shell index.html, read, hashed and
# gzipped per request). Beside them, nginx (Debian's nginx-light) serves the same page's Brotli bytes
# as a precompressed file with the same headers: the anchor of the page rows (the same-run ratio of
# mg-server's page to nginx's, and of its /health to bare axum's, are printed at the end).
# PAGES_ONLY=1 measures only the pages (and bare axum).
#   usage: [ROUNDS=3] [BASELINE_BIN=path] [PAGES_DIST=dir] [PAGES_ONLY=1] benches/load.sh [seconds per endpoint, default 10] [connections, default 64]
set -euo pipefail

DURATION="${1:-10}"
ROUNDS="${ROUNDS:-3}"
CONNECTIONS="${2:-64}"
THREADS=2
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
WORK="$(mktemp -d)"
PIDS=()
NGINX_PID=""
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    # nginx's master stops its workers on SIGQUIT (SIGKILL would orphan them).
    if [ -n "$NGINX_PID" ]; then
        kill -QUIT "$NGINX_PID" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.05; done
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
NGINX="$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true)"
[ -n "$NGINX" ] || { echo "nginx is missing (the page's anchor): apt-get install -y nginx-light" >&2; exit 1; }
(cd "$ROOT" && cargo build --release -q -p mg-server --bin mg-server &&
    cargo build --release -q -p mg-benches --example bare_axum --example bench_identity)

wait_for() {
    for _ in $(seq 1 100); do
        curl -fs "$1" >/dev/null 2>&1 && return 0
        sleep 0.05
    done
    echo "not ready: $1" >&2
    exit 1
}

PORT=3997 "$TARGET/release/examples/bare_axum" & PIDS+=($!)
declare -A PID_OF=([3997]=$!)
PORT=3998 "$TARGET/release/examples/bench_identity" >"$WORK/token" & PIDS+=($!)
PAGES_DIST="${PAGES_DIST:-}"
if [ -z "$PAGES_DIST" ] && [ -f "$ROOT/app/dist/pages.json" ]; then PAGES_DIST="$ROOT/app/dist"; fi
if [ -z "$PAGES_DIST" ]; then
    # A fixture shaped like the build: a shell with the theme script, and /mg/overview prerendered
    # for the variant of the configuration below (sanctified, identity project, no flags).
    PAGES_DIST="$WORK/dist"
    mkdir -p "$PAGES_DIST/pages"
    head='<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>bench</title><script>document.documentElement.dataset.theme=localStorage.getItem("theme")==="void"?"void":"cosmic"</script><script type="module" src="/assets/index.js"></script></head>'
    echo "$head<body><div id=\"root\"></div></body></html>" >"$PAGES_DIST/index.html"
    {
        echo "$head<body><div id=\"root\"><main><h1>Overview</h1>"
        # The docs' own prose (about as compressible as a real page), as paragraphs, to ~60 KB.
        for _ in 1 2 3; do
            sed -e 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' -e '/^ *$/d' -e 's|.*|<p class="docs-paragraph">&</p>|' \
                "$ROOT"/app/src/content/docs/*.md
        done >"$WORK/prose"
        head -c 60000 "$WORK/prose"
        echo "<p>.</p>"
        echo '</main></div></body></html>'
    } >"$PAGES_DIST/pages/overview.html"
    echo '{"version":1,"build":{},"redirects":{},"pages":{"/mg/overview":{"signin-apotheosis-110":"pages/overview.html"}},"notFound":{}}' \
        >"$PAGES_DIST/pages.json"
fi
HOST=127.0.0.1 PORT=3996 DATA_DIR="$WORK" STATIC_DIR="$PAGES_DIST" RUST_LOG=error \
    IDENTITY_PROJECT_ID=Pbench IDENTITY_BASE_URL=http://127.0.0.1:3998 \
    RATE_LIMIT_PER_MINUTE=100000000 STATUS_CHECK_INTERVAL=3600 "$TARGET/release/mg-server" & PIDS+=($!)
PID_OF[3996]=$!
if [ -n "${BASELINE_BIN:-}" ]; then
    mkdir -p "$WORK/base"
    HOST=127.0.0.1 PORT=3995 DATA_DIR="$WORK/base" STATIC_DIR="$PAGES_DIST" RUST_LOG=error \
        IDENTITY_PROJECT_ID=Pbench IDENTITY_BASE_URL=http://127.0.0.1:3998 \
        RATE_LIMIT_PER_MINUTE=100000000 STATUS_CHECK_INTERVAL=3600 "$BASELINE_BIN" & PIDS+=($!)
    PID_OF[3995]=$!
    wait_for http://127.0.0.1:3995/health
fi
wait_for http://127.0.0.1:3997/health
wait_for http://127.0.0.1:3996/health
for _ in $(seq 1 100); do [ -s "$WORK/token" ] && break; sleep 0.05; done
TOKEN="$(head -n1 "$WORK/token")"
# The status answer of the first round of checks (run at start; the next is an hour away, so the
# ETag stays the same for the whole run).
for _ in $(seq 1 100); do
    curl -fs http://127.0.0.1:3996/api/status | grep -q '"last_checked_at":"' && break
    sleep 0.05
done
ETAG="$(curl -fsI http://127.0.0.1:3996/api/status | awk 'tolower($1) == "etag:" { print $2 }' | tr -d '\r')"
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $ETAG" http://127.0.0.1:3996/api/status)" = 304 ] ||
    { echo "GET /api/status with its ETag is not 304" >&2; exit 1; }

# A browser's request for a page, and its tag (of the Brotli copy) for the 304 revalidation.
PAGE=(-H "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" -H "Accept-Encoding: gzip, deflate, br, zstd")
PAGE_ETAG="$(curl -fsI "${PAGE[@]}" http://127.0.0.1:3996/mg/overview | awk 'tolower($1) == "etag:" { print $2 }' | tr -d '\r')"
[ "$(curl -s -o /dev/null -w '%{http_code}' "${PAGE[@]}" -H "If-None-Match: $PAGE_ETAG" http://127.0.0.1:3996/mg/overview)" = 304 ] ||
    { echo "GET /mg/overview with its ETag is not 304" >&2; exit 1; }
echo "pages from $PAGES_DIST: GET /mg/overview is $(curl -fs http://127.0.0.1:3996/mg/overview | wc -c) bytes, $(curl -fs "${PAGE[@]}" http://127.0.0.1:3996/mg/overview | wc -c) Brotli-encoded"

# The page's anchor: nginx (two workers, as the server has two runtime threads, no access log, as
# the server logs nothing at RUST_LOG=error) serving the very bytes mg-server answers, the Brotli
# copy as a precompressed file, with the same response headers (CSP and the rest) as fixed ones.
mkdir -p "$WORK/nginx/logs"
curl -fs -D "$WORK/nginx/head" -o "$WORK/nginx/overview.br" "${PAGE[@]}" http://127.0.0.1:3996/mg/overview
chmod -R a+rX "$WORK"
{
    echo "worker_processes 2; pid $WORK/nginx/nginx.pid; error_log $WORK/nginx/logs/error.log error;"
    echo "events { worker_connections 1024; }"
    echo "http { access_log off; server_tokens off; keepalive_requests 1000000;"
    echo "  server { listen 127.0.0.1:3994;"
    echo "    location = /mg/overview { alias $WORK/nginx/overview.br; types { } default_type \"text/html; charset=utf-8\";"
    tr -d '\r' <"$WORK/nginx/head" | awk -F': ' 'NR > 1 && NF > 1 {
        name = tolower($1)
        if (name ~ /^(content-type|content-length|date|etag|x-request-id|connection|keep-alive)$/) next
        value = substr($0, length($1) + 3)
        gsub(/"/, "\\\"", value)
        printf "      add_header %s \"%s\" always;\n", $1, value
    }'
    echo "    }"
    echo "  }"
    echo "}"
} >"$WORK/nginx/nginx.conf"
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off;' 2>>"$WORK/nginx/logs/error.log" &
NGINX_PID=$!
wait_for http://127.0.0.1:3994/mg/overview
# The CPU of nginx is its workers'.
PID_OF[3994]="$(pgrep -P "$NGINX_PID" | tr '\n' ' ')"
cmp -s <(curl -fs "${PAGE[@]}" http://127.0.0.1:3994/mg/overview) "$WORK/nginx/overview.br" ||
    { echo "nginx does not answer the page's bytes" >&2; cat "$WORK/nginx/logs/error.log" >&2; exit 1; }

cat >"$WORK/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = "{}"
wrk.headers["Content-Type"] = "application/json"
LUA

# CPU time (clock ticks, user + system) the processes have used.
cpu_ticks() {
    local total=0 pid
    for pid in "$@"; do total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat"))); done
    echo "$total"
}

# Prints "req/s p99 cpu-us-per-request" for one endpoint (the URL is the last argument).
measure() {
    local url="${*: -1}" port pid before out
    port="$(sed -E 's|http://127.0.0.1:([0-9]+)/.*|\1|' <<<"$url")"
    pid="${PID_OF[$port]}"
    # shellcheck disable=SC2086 # nginx's entry lists its workers
    before="$(cpu_ticks $pid)"
    out="$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "$@")"
    local rps p99 requests ticks
    # shellcheck disable=SC2086
    ticks=$(($(cpu_ticks $pid) - before))
    rps="$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' <<<"$out")"
    p99="$(awk '$1 == "99%" {print $2}' <<<"$out")"
    requests="$(awk '/requests in/ { print $1 }' <<<"$out")"
    echo "$rps $p99 $(awk -v t="$ticks" -v n="$requests" -v hz="$(getconf CLK_TCK)" \
        'BEGIN { printf "%.2f", (n > 0) ? (t * 1000000 / hz / n) : 0 }')"
}

echo "wrk: $THREADS threads, $CONNECTIONS connections, ${DURATION}s per endpoint, $ROUNDS rounds, 127.0.0.1"
: >"$WORK/results"
for round in $(seq 1 "$ROUNDS"); do
    read -r rps p99 cpu < <(measure http://127.0.0.1:3997/health)
    echo "bare $round $rps $p99 $cpu" >>"$WORK/results"
    read -r rps p99 cpu < <(measure "${PAGE[@]}" http://127.0.0.1:3996/mg/overview)
    echo "page $round $rps $p99 $cpu" >>"$WORK/results"
    read -r rps p99 cpu < <(measure "${PAGE[@]}" -H "If-None-Match: $PAGE_ETAG" http://127.0.0.1:3996/mg/overview)
    echo "page304 $round $rps $p99 $cpu" >>"$WORK/results"
    read -r rps p99 cpu < <(measure "${PAGE[@]}" http://127.0.0.1:3994/mg/overview)
    echo "nginxpage $round $rps $p99 $cpu" >>"$WORK/results"
    if [ -n "${BASELINE_BIN:-}" ]; then
        read -r rps p99 cpu < <(measure "${PAGE[@]}" http://127.0.0.1:3995/mg/overview)
        echo "basepage $round $rps $p99 $cpu" >>"$WORK/results"
    fi
    [ -n "${PAGES_ONLY:-}" ] && continue
    read -r rps p99 cpu < <(measure http://127.0.0.1:3996/health)
    echo "health $round $rps $p99 $cpu" >>"$WORK/results"
    read -r rps p99 cpu < <(measure -s "$WORK/post.lua" http://127.0.0.1:3996/api/wisdom)
    echo "wisdom $round $rps $p99 $cpu" >>"$WORK/results"
    read -r rps p99 cpu < <(measure -s "$WORK/post.lua" -H "Authorization: Bearer $TOKEN" \
        http://127.0.0.1:3996/api/auth/current-user)
    echo "user $round $rps $p99 $cpu" >>"$WORK/results"
    read -r rps p99 cpu < <(measure http://127.0.0.1:3996/api/status)
    echo "status $round $rps $p99 $cpu" >>"$WORK/results"
    read -r rps p99 cpu < <(measure -H "If-None-Match: $ETAG" http://127.0.0.1:3996/api/status)
    echo "status304 $round $rps $p99 $cpu" >>"$WORK/results"
    if [ -n "${BASELINE_BIN:-}" ]; then
        read -r rps p99 cpu < <(measure http://127.0.0.1:3995/health)
        echo "basehealth $round $rps $p99 $cpu" >>"$WORK/results"
        read -r rps p99 cpu < <(measure -s "$WORK/post.lua" -H "Authorization: Bearer $TOKEN" \
            http://127.0.0.1:3995/api/auth/current-user)
        echo "baseuser $round $rps $p99 $cpu" >>"$WORK/results"
    fi
done

# The median round of one endpoint, as "req/s p99".
median() {
    awk -v name="$1" '$1 == name { print $3, $4 }' "$WORK/results" | sort -n |
        awk '{ rows[NR] = $0 } END { print rows[int((NR + 1) / 2)] }'
}
read -r bare_rps bare_p99 < <(median bare)
read -r health_rps health_p99 < <(median health)
read -r wisdom_rps wisdom_p99 < <(median wisdom)
read -r user_rps user_p99 < <(median user)
read -r status_rps status_p99 < <(median status)
read -r status304_rps status304_p99 < <(median status304)
# Per-round /health ratios (bare and mg-server measured back to back), and their median.
health_ratio="$(awk '$1 == "bare" { bare[$2] = $3 } $1 == "health" { health[$2] = $3 }
    END { for (r in bare) if (bare[r] > 0) print 100 * health[r] / bare[r] }' "$WORK/results" |
    sort -n | awk '{ rows[NR] = $0 } END { printf "%.0f%%", rows[int((NR + 1) / 2)] }')"
# Per-round ratios of one endpoint's req/s to another's (measured in the same round), and their median.
round_ratios() {
    awk -v a="$1" -v b="$2" '$1 == a { x[$2] = $3 } $1 == b { y[$2] = $3 }
        END { for (r in x) if (y[r] > 0) print 100 * x[r] / y[r] }' "$WORK/results" |
        sort -n | awk '{ rows[NR] = $0; line = line sprintf(" %.0f%%", $0) }
            END { printf "%.0f%% (rounds:%s)", rows[int((NR + 1) / 2)], line }'
}
echo "per round (endpoint round req/s p99 server-CPU-us-per-request):"
sed 's/^/  /' "$WORK/results"

ratio() { awk -v a="$1" -v b="$bare_rps" 'BEGIN {printf "%.0f%%", 100 * a / b}'; }
read -r page_rps page_p99 < <(median page)
read -r page304_rps page304_p99 < <(median page304)
printf '| %-40s | %10s | %8s | %10s |\n' "Endpoint (median round)" "req/s" "p99" "vs bare"
printf '|%s|%s|%s|%s|\n' "------------------------------------------" "------------" "----------" "------------"
printf '| %-40s | %10s | %8s | %10s |\n' "bare axum GET /health" "$bare_rps" "$bare_p99" "100%"
printf '| %-40s | %10s | %8s | %10s |\n' "mg-server GET /mg/overview (br)" "$page_rps" "$page_p99" "$(ratio "$page_rps")"
printf '| %-40s | %10s | %8s | %10s |\n' "mg-server GET /mg/overview (304)" "$page304_rps" "$page304_p99" "$(ratio "$page304_rps")"
read -r nginx_rps nginx_p99 < <(median nginxpage)
printf '| %-40s | %10s | %8s | %10s |\n' "nginx GET /mg/overview (same file, br)" "$nginx_rps" "$nginx_p99" "$(ratio "$nginx_rps")"
if [ -n "${BASELINE_BIN:-}" ]; then
    read -r basepage_rps basepage_p99 < <(median basepage)
    printf '| %-40s | %10s | %8s | %10s |\n' "baseline GET /mg/overview" "$basepage_rps" "$basepage_p99" "$(ratio "$basepage_rps")"
fi
if [ -z "${PAGES_ONLY:-}" ]; then
    printf '| %-40s | %10s | %8s | %10s |\n' "mg-server GET /health" "$health_rps" "$health_p99" "$health_ratio"
    printf '| %-40s | %10s | %8s | %10s |\n' "mg-server POST /api/wisdom" "$wisdom_rps" "$wisdom_p99" "$(ratio "$wisdom_rps")"
    printf '| %-40s | %10s | %8s | %10s |\n' "mg-server POST /api/auth/current-user" "$user_rps" "$user_p99" "$(ratio "$user_rps")"
    printf '| %-40s | %10s | %8s | %10s |\n' "mg-server GET /api/status (200)" "$status_rps" "$status_p99" "$(ratio "$status_rps")"
    printf '| %-40s | %10s | %8s | %10s |\n' "mg-server GET /api/status (304 poll)" "$status304_rps" "$status304_p99" "$(ratio "$status304_rps")"
fi
echo "the edge's cost, same-run ratios: GET /mg/overview vs nginx serving the same file $(round_ratios page nginxpage)"
[ -z "${PAGES_ONLY:-}" ] && echo "the edge's cost, same-run ratios: GET /health vs bare axum $(round_ratios health bare)"
if [ -n "${BASELINE_BIN:-}" ]; then
    echo "this build vs baseline, GET /mg/overview: $(round_ratios page basepage)"
    if [ -z "${PAGES_ONLY:-}" ]; then
        read -r base_health_rps base_health_p99 < <(median basehealth)
        read -r base_user_rps base_user_p99 < <(median baseuser)
        printf '| %-40s | %10s | %8s | %10s |\n' "baseline GET /health" "$base_health_rps" "$base_health_p99" "$(ratio "$base_health_rps")"
        printf '| %-40s | %10s | %8s | %10s |\n' "baseline POST /api/auth/current-user" "$base_user_rps" "$base_user_p99" "$(ratio "$base_user_rps")"
        echo "this build vs baseline, /health: $(round_ratios health basehealth)"
        echo "this build vs baseline, current-user: $(round_ratios user baseuser)"
    fi
fi

# The median over rounds of one endpoint's server CPU time per request.
cpu_median() {
    awk -v name="$1" '$1 == name { print $5 }' "$WORK/results" | sort -n |
        awk '{ rows[NR] = $0 } END { print rows[int((NR + 1) / 2)] }'
}
echo "server CPU per request (median round): /mg/overview $(cpu_median page) us, its 304 $(cpu_median page304) us, nginx's $(cpu_median nginxpage) us${BASELINE_BIN:+, baseline /mg/overview $(cpu_median basepage) us}"
[ -n "${PAGES_ONLY:-}" ] && exit 0
echo "server CPU per request (median round): bare $(cpu_median bare) us, /health $(cpu_median health) us, wisdom $(cpu_median wisdom) us, current-user $(cpu_median user) us"
if [ -n "${BASELINE_BIN:-}" ]; then
    echo "baseline server CPU per request (median round): /health $(cpu_median basehealth) us, current-user $(cpu_median baseuser) us"
fi
