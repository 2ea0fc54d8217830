//! The server's local files: where a SQLite URL's database file is, and owner-only permissions for
//! its state (`DATA_DIR` 0700, the SQLite database and its WAL and SHM files 0600: SQLite gives the
//! WAL and SHM files the database file's mode).

use std::{io, path::Path};

/// Creates `dir` (and its parents) if needed and makes it accessible to its owner only.
pub fn private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    set_mode(dir, 0o700)
}

/// Makes the database file at `path` (created empty if missing, which SQLite reads as a new
/// database) and any WAL and SHM files beside it readable and writable by their owner only.
pub fn private_sqlite_files(path: &Path) -> io::Result<()> {
    if !path.exists() {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(path) {
            Ok(_) => {}
            // Another instance created it first: fine, its mode is fixed below.
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(error),
        }
    }
    set_mode(path, 0o600)?;
    for suffix in ["-wal", "-shm"] {
        let mut side = path.as_os_str().to_owned();
        side.push(suffix);
        let side = Path::new(&side);
        if side.exists() {
            set_mode(side, 0o600)?;
        }
    }
    Ok(())
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_path: &Path, _mode: u32) -> io::Result<()> {
    Ok(())
}
/// The file of a `sqlite://path?opts` URL; `None` for an in-memory database.
pub fn sqlite_path(url: &str) -> Option<&str> {
    let path = url
        .trim_start_matches("sqlite:")
        .trim_start_matches("//")
        .split('?')
        .next()?;
    let in_memory = path.is_empty() || path == ":memory:" || url.contains("mode=memory");
    (!in_memory).then_some(path)
}

/// The directory of a `sqlite://path?opts` URL, if it names a file in a directory.
pub fn sqlite_parent_dir(url: &str) -> Option<&Path> {
    Path::new(sqlite_path(url)?)
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
}
