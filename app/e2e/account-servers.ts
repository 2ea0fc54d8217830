import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// Two instances of the real server on one fresh PostgreSQL database, for the account specs: a
// session signed out through one must be refused by the other. Both share one data folder, so the
// identity emulator signs with one key and either instance accepts the other's tokens.
// PostgreSQL is the one the server's tests use (MG_TEST_POSTGRES_URL). As with the server's
// PostgreSQL tests, a run without it skips these specs outside CI and fails in CI.

const here = fileURLToPath(new URL("..", import.meta.url));
const binary = process.env.MG_SERVER_BIN ?? join(here, "..", "target", "debug", "mg-server");

/** Outside CI without MG_TEST_POSTGRES_URL: the reason the two-instance specs are skipped. */
export const withoutPostgres: string | false =
  !process.env.MG_TEST_POSTGRES_URL && !process.env.CI
    ? "MG_TEST_POSTGRES_URL is not set (CI sets it; the two-instance specs need PostgreSQL)"
    : false;

/** The PostgreSQL server's admin URL, or a failure saying how to give one. */
export function postgresAdminUrl(): string {
  const url = process.env.MG_TEST_POSTGRES_URL;
  if (!url) {
    throw new Error(
      "the account specs run two servers on PostgreSQL: set MG_TEST_POSTGRES_URL " +
        "(e.g. postgres://mg_ci:mg_ci@127.0.0.1:5432/postgres)",
    );
  }
  return url;
}

/** Runs `sql` on `url` with psql; its rows, one per line, columns split by `|`. */
export function psql(url: string, sql: string): string[][] {
  const out = execFileSync("psql", [url, "-Atc", sql], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => line.split("|"));
}

async function healthy(origin: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (server.exitCode !== null) throw new Error(`the server at ${origin} exited`);
    try {
      if ((await fetch(`${origin}/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server at ${origin} did not start`);
}

export interface ServerPair {
  origins: [string, string];
  databaseUrl: string;
  stop: () => Promise<void>;
}

/** Starts the two instances on ports `first` and `first + 1`, on a database made for them. */
export async function startPair(first: number): Promise<ServerPair> {
  const admin = postgresAdminUrl();
  const name = `mg_e2e_account_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  psql(admin, `CREATE DATABASE ${name}`);
  const databaseUrl = admin.replace(/\/[^/]*$/, `/${name}`);
  const data = mkdtempSync(join(tmpdir(), "mg-e2e-account-"));
  const servers: ChildProcess[] = [];
  const origins: string[] = [];
  // One after the other: the first creates the schema and the emulator's key.
  for (const port of [first, first + 1]) {
    const server = spawn(binary, [], {
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: data,
        DATABASE_URL: databaseUrl,
        STATIC_DIR: join(here, "dist"),
        RATE_LIMIT_PER_MINUTE: "100000",
        RUST_LOG: "warn",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    servers.push(server);
    const origin = `http://127.0.0.1:${port}`;
    await healthy(origin, server);
    origins.push(origin);
  }
  return {
    origins: origins as [string, string],
    databaseUrl,
    stop: async () => {
      for (const server of servers) {
        if (server.exitCode === null) {
          server.kill("SIGTERM");
          await new Promise((resolve) => server.once("exit", resolve));
        }
      }
      psql(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(data, { recursive: true, force: true });
    },
  };
}
