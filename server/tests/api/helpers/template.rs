//! What every test database is copied from: an empty database migrated once, so that a test's
//! server starts on the whole schema and its migrator finds nothing to apply. Each is named after
//! the migrations' contents, so a new or changed migration gives a new one.
//! - PostgreSQL: the database `mg_template_{hash}`, copied by `CREATE DATABASE ... TEMPLATE`.
//!   Whichever test process comes first makes it, under an advisory lock, and every later one
//!   (this run's other test binaries, later runs, other checkouts on the same server with the same
//!   migrations) finds it made. One of migrations no longer current stays until dropped by hand.
//! - SQLite: the file `sqlite-template-{hash}.db` in cargo's temporary folder of the integration
//!   tests (`target/tmp/`), copied into each test's data directory.

use sqlx::{Executor, PgConnection};

/// What every template's name starts with (never [`super::TEST_DATABASE_PREFIX`]: the sweep of
/// stale test databases leaves templates alone).
const TEMPLATE_PREFIX: &str = "mg_template_";
/// The advisory lock one process at a time holds while it looks for the template and makes it.
const TEMPLATE_LOCK: i64 = 0x6d67_5f74_656d_706c;

/// The migrated template's name, made first if this PostgreSQL server has none yet (once per test
/// process).
pub(super) async fn migrated_template(admin: &mut PgConnection, admin_url: &str) -> String {
    static NAME: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    NAME.get_or_init(|| made(admin, admin_url)).await.clone()
}

async fn made(admin: &mut PgConnection, admin_url: &str) -> String {
    let name = format!("{TEMPLATE_PREFIX}{}", &migrations_hash("postgres")[..16]);
    admin
        .execute(format!("SELECT pg_advisory_lock({TEMPLATE_LOCK})").as_str())
        .await
        .expect("take the template's lock");
    let exists: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
            .bind(&name)
            .fetch_one(&mut *admin)
            .await
            .expect("look for the template");
    if !exists {
        // Built under another name and renamed when migrated: a process killed halfway leaves no
        // half-made template behind under the real name.
        let building = format!("{name}_new");
        for statement in [
            format!(r#"DROP DATABASE IF EXISTS "{building}" WITH (FORCE)"#),
            format!(r#"CREATE DATABASE "{building}""#),
        ] {
            admin
                .execute(statement.as_str())
                .await
                .unwrap_or_else(|error| panic!("{statement}: {error}"));
        }
        let (base, _) = admin_url.rsplit_once('/').expect("a database URL");
        let db = mg_server::db::Database::connect(&format!("{base}/{building}"), Some(1))
            .await
            .expect("migrate the template");
        db.pool().close().await;
        // PostgreSQL waits (up to 5 s) for the closed connection's backend to end.
        let rename = format!(r#"ALTER DATABASE "{building}" RENAME TO "{name}""#);
        admin
            .execute(rename.as_str())
            .await
            .unwrap_or_else(|error| panic!("{rename}: {error}"));
    }
    admin
        .execute(format!("SELECT pg_advisory_unlock({TEMPLATE_LOCK})").as_str())
        .await
        .expect("release the template's lock");
    name
}

/// Puts a migrated SQLite database at `path` (made once per set of migrations, in `target/tmp/`).
pub(super) async fn copy_migrated_sqlite(path: &std::path::Path) {
    static MADE: tokio::sync::OnceCell<std::path::PathBuf> = tokio::sync::OnceCell::const_new();
    let template = MADE
        .get_or_init(|| async {
            let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
            let hash = migrations_hash("sqlite");
            let template = dir.join(format!("sqlite-template-{}.db", &hash[..16]));
            if !template.exists() {
                // Made under this process's own name, then renamed into place whole: another test
                // process making it at the same time renames the same content over it.
                let building = dir.join(format!(
                    "sqlite-template-{}.{}.db",
                    &hash[..16],
                    std::process::id()
                ));
                let url = format!("sqlite://{}?mode=rwc", building.display());
                let db = mg_server::db::Database::connect(&url, Some(1))
                    .await
                    .expect("migrate the SQLite template");
                // The last connection's close folds the WAL into the file and removes it.
                db.pool().close().await;
                std::fs::rename(&building, &template).expect("the SQLite template in place");
            }
            template
        })
        .await;
    std::fs::copy(template, path).expect("copy the SQLite template");
}

/// SHA-256 of the migrations of `engine` (`postgres`, `sqlite`: names and contents, in order) and of
/// the migrator's code that rewrites old checksums: what a template's schema is made of.
fn migrations_hash(engine: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../platform");
    let dir = root.join("migrations").join(engine);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the migrations' folder")
        .map(|entry| entry.expect("a migration").path())
        .collect();
    files.push(root.join("src/db/migrate.rs"));
    files.sort();
    let mut all = Vec::new();
    for file in files {
        let name = file.file_name().expect("a file name").to_string_lossy();
        all.extend_from_slice(name.as_bytes());
        all.extend(std::fs::read(&file).expect("read a migration"));
    }
    mg_server::identity::sha256_hex(&all)
}
