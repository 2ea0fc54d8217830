//! The app's directory as the server finds its files in it: where it really is (symlinks
//! resolved), which file a request path names, and whether a file lies outside it.

use std::path::{Path, PathBuf};

/// The app's directory, and where it really is (symlinks resolved).
#[derive(Debug)]
pub struct Root {
    pub(crate) dir: PathBuf,
    real: Option<PathBuf>,
}

impl Root {
    pub(crate) fn new(dir: &Path) -> Self {
        Self {
            dir: dir.to_path_buf(),
            real: std::fs::canonicalize(dir).ok(),
        }
    }

    /// Whether `file` exists and really lies outside the app's directory (a symlink out of it).
    /// Blocking: from async code, in `spawn_blocking`.
    pub(crate) fn escapes_blocking(&self, file: &Path) -> bool {
        let Ok(real) = std::fs::canonicalize(file) else {
            return false;
        };
        if self
            .real
            .as_ref()
            .is_some_and(|root| real.starts_with(root))
        {
            return false;
        }
        // The directory itself may have moved since start (a release symlink flipped).
        match std::fs::canonicalize(&self.dir) {
            Ok(root) => !real.starts_with(root),
            Err(_) => true,
        }
    }

    /// The file a request path names under the directory, as `ServeDir` maps it; `None` for a
    /// path `ServeDir` refuses anyway (`..`, backslashes, not UTF-8).
    pub(crate) fn file_for(&self, path: &str) -> Option<PathBuf> {
        let decoded = percent_encoding::percent_decode_str(path)
            .decode_utf8()
            .ok()?;
        let mut file = self.dir.clone();
        for segment in decoded.split('/').filter(|s| !s.is_empty()) {
            if segment == "." || segment == ".." || segment.contains('\\') {
                return None;
            }
            file.push(segment);
        }
        Some(file)
    }
}
