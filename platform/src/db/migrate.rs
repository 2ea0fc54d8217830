//! The schema: the migrations of each engine (`platform/migrations/{sqlite,postgres}/`, applied at
//! every start), and the few rewritten after release whose old checksums are still accepted.

use sqlx::{migrate::Migrator, AnyPool};

use super::backend::Backend;

pub(super) static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("./migrations/sqlite");
pub(super) static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("./migrations/postgres");

/// Migrations rewritten after release, with the checksum each had before: (version, sqlite, postgres).
/// A database migrated before a rewrite still records the old checksum, which sqlx would refuse as
/// "modified"; when a rewrite leaves the schema as it was, the old checksum is swapped for the new one
/// before migrating (`migrations/README.md` says when a rewrite may be registered here).
/// - 2: used to insert the seed quotes itself; they moved to `seed/wisdom.json` (one file for both
///   engines).
/// - 5: its first comment line lost a reference to the project's tracker.
pub const REWRITTEN_MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        2,
        "c6187d242f23ddda5eb15a61a4b1decb7291eb6f553c7f6863bb53c7162257a8b07b85a1c76ad4fe8ddb0353a8a05690",
        "7b5e6071d7d9954d384a070557e2ce4fca70b79fb89c1e512288241e47a23e870b19440d597803882d194335b8c7213e",
    ),
    (5, "dcf4facd5deaf73afa4823c9a9d3bb21b47ff149f9f4884505e6a8840f74dc612dafdae5bd576523bd184e239cad718b", "dcf4facd5deaf73afa4823c9a9d3bb21b47ff149f9f4884505e6a8840f74dc612dafdae5bd576523bd184e239cad718b"),
];

/// See `REWRITTEN_MIGRATIONS`. Does nothing on a new database or one already up to date.
async fn accept_rewritten_migrations(
    pool: &AnyPool,
    backend: Backend,
    migrator: &Migrator,
) -> anyhow::Result<()> {
    let table_exists = match backend {
        Backend::Sqlite => {
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'"
        }
        Backend::Postgres => "SELECT COUNT(*) FROM pg_tables WHERE tablename = '_sqlx_migrations'",
    };
    let found: i64 = sqlx::query_scalar(table_exists).fetch_one(pool).await?;
    if found == 0 {
        return Ok(());
    }
    for &(version, sqlite_old, postgres_old) in REWRITTEN_MIGRATIONS {
        let old = match backend {
            Backend::Sqlite => sqlite_old,
            Backend::Postgres => postgres_old,
        };
        let Some(current) = migrator.iter().find(|m| m.version == version) else {
            continue;
        };
        sqlx::query(
            "UPDATE _sqlx_migrations SET checksum = $1 WHERE version = $2 AND checksum = $3",
        )
        .bind(current.checksum.to_vec())
        .bind(version)
        .bind(crate::hex::decode(old).ok_or_else(|| anyhow::anyhow!("not hex: {old}"))?)
        .execute(pool)
        .await?;
    }
    Ok(())
}

/// Brings the database's schema up to date.
pub(super) async fn run(pool: &AnyPool, backend: Backend) -> anyhow::Result<()> {
    let migrator = match backend {
        Backend::Sqlite => &SQLITE_MIGRATIONS,
        Backend::Postgres => &POSTGRES_MIGRATIONS,
    };
    accept_rewritten_migrations(pool, backend, migrator).await?;
    migrator.run(pool).await?;
    Ok(())
}
