//! Local state on disk: owner-only files, and SQLite commits that survive a power loss.

use std::{os::unix::fs::PermissionsExt, path::Path};

use mg_server::{config::Config, startup::Application};

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// Starts the server as `make run` does (default database under DATA_DIR, the emulator on).
async fn start_with_data_dir(data_dir: &Path) -> String {
    let dir = data_dir.display().to_string();
    let mut config =
        Config::from_lookup(|name| (name == "DATA_DIR").then(|| dir.clone())).expect("defaults");
    config.port = 0;
    config.static_dir = data_dir.join("no-app");
    crate::helpers::show_server_logs_when_asked();
    let app = Application::build(config).await.expect("starts");
    let address = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    address
}

#[tokio::test]
async fn data_dir_is_0700_and_the_database_wal_and_shm_files_are_0600() {
    // Before: 0755 and 0644 (the umask's), readable by every local user.
    let root = tempfile::tempdir().expect("temp dir");
    let data_dir = root.path().join("data");
    let address = start_with_data_dir(&data_dir).await;
    // A write, so the WAL and SHM files exist.
    let answer = reqwest::Client::new()
        .post(format!("{address}/api/wisdom"))
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .expect("answers");
    assert_eq!(answer.status(), 200);
    assert_eq!(mode(&data_dir), 0o700);
    for file in ["mg.db", "mg.db-wal", "mg.db-shm"] {
        assert_eq!(mode(&data_dir.join(file)), 0o600, "{file}");
    }
    assert_eq!(mode(&data_dir.join("identity-emulator")), 0o700);
}

#[tokio::test]
async fn an_existing_data_dir_and_database_are_tightened_at_start() {
    let root = tempfile::tempdir().expect("temp dir");
    let data_dir = root.path().join("data");
    std::fs::create_dir(&data_dir).expect("mkdir");
    std::fs::set_permissions(&data_dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    for file in ["mg.db", "mg.db-wal"] {
        std::fs::write(data_dir.join(file), b"").expect("touch");
        std::fs::set_permissions(data_dir.join(file), std::fs::Permissions::from_mode(0o644))
            .expect("chmod");
    }
    start_with_data_dir(&data_dir).await;
    assert_eq!(mode(&data_dir), 0o700);
    assert_eq!(mode(&data_dir.join("mg.db")), 0o600);
    assert_eq!(mode(&data_dir.join("mg.db-wal")), 0o600);
}

#[tokio::test]
async fn every_sqlite_connection_syncs_fully() {
    // Before: synchronous = NORMAL (1), whose last commits a power loss can undo in WAL mode.
    let root = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}?mode=rwc", root.path().join("x.db").display());
    let db = mg_server::db::Database::connect(&url, Some(3))
        .await
        .expect("connects");
    for _ in 0..3 {
        let level: i64 = sqlx::query_scalar("PRAGMA synchronous")
            .fetch_one(db.pool())
            .await
            .expect("pragma");
        assert_eq!(level, 2, "FULL");
    }
}
