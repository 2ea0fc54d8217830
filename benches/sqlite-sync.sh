#!/usr/bin/env bash
# What `PRAGMA synchronous = FULL` costs the server's SQLite writes (docs/performance.md).
# One writer commits single-row UPDATEs (the shape of update-profile) in WAL mode, as the server's
# pool does, alternately with synchronous NORMAL and FULL on the same disk, ROUNDS interleaved
# rounds of SECONDS each; prints commits/s of each and their ratio (medians).
#   usage: [ROUNDS=3] benches/sqlite-sync.sh [seconds per round, default 3]
set -euo pipefail
SECONDS_PER_ROUND="${1:-3}"
ROUNDS="${ROUNDS:-3}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# On the project's disk (target/ is), not a tmpfs where fsync costs nothing.
mkdir -p "$ROOT/target"
WORK="$(mktemp -d "$ROOT/target/sqlite-sync.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
python3 - "$WORK" "$SECONDS_PER_ROUND" "$ROUNDS" <<'PY'
import sqlite3, statistics, sys, time
work, seconds, rounds = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
db = sqlite3.connect(f"{work}/bench.db", isolation_level=None)
db.execute("PRAGMA journal_mode = WAL")
db.execute("CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT, updated_at INTEGER)")
db.executemany("INSERT INTO users VALUES (?, 'x', 0)", [(f"u{i}",) for i in range(1000)])
def commits_per_second(level):
    db.execute(f"PRAGMA synchronous = {level}")
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        db.execute("BEGIN")
        db.execute("UPDATE users SET name = ?, updated_at = ? WHERE id = ?", (f"n{n}", n, f"u{n % 1000}"))
        db.execute("COMMIT")
        n += 1
    return n / (time.perf_counter() - start)
results = {"NORMAL": [], "FULL": []}
for _ in range(rounds):
    for level in results:
        results[level].append(commits_per_second(level))
normal, full = (statistics.median(results[k]) for k in ("NORMAL", "FULL"))
print(f"single-writer UPDATE commits/s, WAL, {rounds} rounds x {seconds:g}s, median:")
for level, runs in results.items():
    print(f"  synchronous={level:<6} {statistics.median(runs):8.0f}  (rounds: {', '.join(f'{r:.0f}' for r in runs)})")
print(f"  FULL / NORMAL = {100 * full / normal:.0f}%")
PY
