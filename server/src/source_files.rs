//! Reading the workspace's Rust sources for the tests that look at them as text
//! (`file_cycles.rs`): every file of a `src/`, without its test modules and comment lines.

use std::path::{Path, PathBuf};

/// The source without its `#[cfg(test)]` modules and comment lines, line numbers kept (removed
/// lines become empty).
pub(crate) fn without_tests_and_comments(source: &str) -> Vec<String> {
    let lines: Vec<&str> = source.lines().collect();
    let mut kept = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        let next = lines.get(i + 1).map(|l| l.trim()).unwrap_or_default();
        let test_module = line == "#[cfg(test)]"
            && (next.starts_with("mod ") || next.starts_with("pub mod "))
            && next.ends_with('{');
        if test_module {
            // Skip to the brace that closes the module.
            let mut depth = 0i32;
            kept.push(String::new());
            i += 1;
            while i < lines.len() {
                depth += lines[i].matches('{').count() as i32;
                depth -= lines[i].matches('}').count() as i32;
                kept.push(String::new());
                i += 1;
                if depth <= 0 {
                    break;
                }
            }
            continue;
        }
        kept.push(if line.starts_with("//") {
            String::new()
        } else {
            lines[i].to_owned()
        });
        i += 1;
    }
    kept
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The files of modules declared `#[cfg(test)] mod name;` (tests in a file of their own).
pub(crate) fn test_only_files(sources: &[(PathBuf, String)]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for (relative, source) in sources {
        // The directory a file's child modules live in.
        let name = relative.file_stem().unwrap_or_default();
        let dir = match relative.parent() {
            Some(parent) if name == "mod" || name == "lib" || name == "main" => {
                parent.to_path_buf()
            }
            Some(parent) => parent.join(name),
            None => PathBuf::new(),
        };
        let lines: Vec<&str> = source.lines().map(str::trim).collect();
        for pair in lines.windows(2) {
            if pair[0] == "#[cfg(test)]" {
                if let Some(module) = pair[1]
                    .strip_prefix("mod ")
                    .and_then(|rest| rest.strip_suffix(';'))
                {
                    found.push(dir.join(format!("{module}.rs")));
                    found.push(dir.join(module).join("mod.rs"));
                }
            }
        }
    }
    found
}

/// Every `.rs` file under `src` with its text, by its path relative to `src`, in a stable order.
pub(crate) fn read_sources(src: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files
        .iter()
        .map(|file| {
            let source = std::fs::read_to_string(file).expect("a source file");
            (
                file.strip_prefix(src).expect("under src/").to_path_buf(),
                source,
            )
        })
        .collect()
}
