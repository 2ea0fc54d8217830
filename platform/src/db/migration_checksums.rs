//! Migrations are never edited once applied: each file's checksum is held against the list committed
//! in `migrations/checksums.txt`. An edit fails here; `migrations/README.md` says what to do instead.

use std::{collections::BTreeMap, path::Path};

use super::migrate::{POSTGRES_MIGRATIONS, REWRITTEN_MIGRATIONS, SQLITE_MIGRATIONS};

fn migrations_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations")
}

/// `engine/file` -> lower-case hex SHA-384, from the committed list.
fn committed() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(migrations_dir().join("checksums.txt"))
        .expect("migrations/checksums.txt is readable");
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (sum, file) = line
                .split_once("  ")
                .unwrap_or_else(|| panic!("not `<sha384>  <engine/file>`: {line}"));
            (file.trim().to_owned(), sum.trim().to_owned())
        })
        .collect()
}

/// `engine/file` -> lower-case hex SHA-384, from the files on disk.
fn on_disk() -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for engine in ["sqlite", "postgres"] {
        let dir = migrations_dir().join(engine);
        for entry in std::fs::read_dir(&dir).expect("a migrations directory") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|ext| ext == "sql") {
                let bytes = std::fs::read(&path).expect("a migration file");
                let name = path.file_name().expect("a name").to_string_lossy();
                found.insert(
                    format!("{engine}/{name}"),
                    crate::hex::encode(
                        ring::digest::digest(&ring::digest::SHA384, &bytes).as_ref(),
                    ),
                );
            }
        }
    }
    found
}

#[test]
fn no_migration_file_differs_from_its_committed_checksum() {
    let committed = committed();
    let on_disk = on_disk();
    let mut problems = Vec::new();
    for (file, sum) in &on_disk {
        match committed.get(file) {
            None => problems.push(format!(
                "{file}: new migration; add `{sum}  {file}` to migrations/checksums.txt"
            )),
            Some(listed) if listed != sum => problems.push(format!(
                "{file}: edited after it was applied (checksum {sum}, committed {listed}); \
                 write a new migration instead (migrations/README.md)"
            )),
            Some(_) => {}
        }
    }
    for file in committed.keys().filter(|file| !on_disk.contains_key(*file)) {
        problems.push(format!("{file}: listed in checksums.txt but gone"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        on_disk.len() >= 10,
        "found the migrations: {}",
        on_disk.len()
    );
}

/// The list's checksums are what sqlx embeds and records (`_sqlx_migrations.checksum`).
#[test]
fn the_committed_checksums_are_the_ones_sqlx_records() {
    let committed = committed();
    for (engine, migrator) in [
        ("sqlite", &SQLITE_MIGRATIONS),
        ("postgres", &POSTGRES_MIGRATIONS),
    ] {
        for migration in migrator.iter() {
            let file = committed
                .iter()
                .find(|(file, _)| file.starts_with(&format!("{engine}/{:04}_", migration.version)))
                .unwrap_or_else(|| panic!("{engine} migration {} is listed", migration.version));
            assert_eq!(
                &crate::hex::encode(&migration.checksum),
                file.1,
                "{}",
                file.0
            );
        }
    }
}

/// A registered rewrite names a checksum the migration really had before, not its current one.
#[test]
fn registered_rewrites_name_an_earlier_checksum() {
    for &(version, sqlite_old, postgres_old) in REWRITTEN_MIGRATIONS {
        for (migrator, old) in [
            (&SQLITE_MIGRATIONS, sqlite_old),
            (&POSTGRES_MIGRATIONS, postgres_old),
        ] {
            let current = migrator
                .iter()
                .find(|m| m.version == version)
                .unwrap_or_else(|| panic!("migration {version} exists"));
            assert_eq!(old.len(), 96, "a SHA-384 in hex: {old}");
            assert_ne!(
                crate::hex::encode(&current.checksum),
                old,
                "migration {version}"
            );
        }
    }
}
