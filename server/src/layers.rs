//! The server's layers, kept by a test: every `crate::` path in `src/` (test modules and comments
//! aside) must point at a module of a lower layer, or be one of the few same-layer imports listed
//! in `SIDEWAYS`. So no module imports upward, `edge` never reaches the identity emulator, `status`
//! never reaches `routes` or `site`, and there are no circles between top-level modules.
//!
//! Where new code goes: a module used by two features belongs in the floor or the leaves, never in
//! one of the features; a new top-level module must be added to `LAYERS` below.

use std::path::{Path, PathBuf};

/// Top to bottom. A module may import the modules of any layer below its own.
const LAYERS: &[(&str, &[&str])] = &[
    // The binary: reads the configuration and runs the application.
    ("entry", &["main"]),
    // Assembles the features into one application and serves it.
    ("startup", &["lib", "startup", "state", "serve"]),
    // What the server does: the API, the app's site, the status checks and answers, sessions,
    // the development identity emulator.
    (
        "features",
        &["routes", "site", "status", "identity", "emulator"],
    ),
    // What the features share: configuration, the database, the HTTP edge, precomputed answers,
    // request extraction, rate limits, metrics, logging.
    (
        "floor",
        &[
            "config",
            "db",
            "edge",
            "precomputed",
            "extract",
            "rate_limit",
            "request_metrics",
            "telemetry",
        ],
    ),
    // Small modules that import no other module of the crate.
    (
        "leaves",
        &["error", "hex", "html", "time", "domain", "forwarded"],
    ),
];

/// The imports allowed between two modules of one layer (importer, imported); never both ways.
const SIDEWAYS: &[(&str, &str)] = &[
    ("startup", "state"),
    ("startup", "serve"),
    ("routes", "status"),
    ("routes", "identity"),
    ("emulator", "identity"),
    ("edge", "extract"),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

/// Why importing `target` from `module` breaks the layers, if it does.
fn violation(module: &str, target: &str) -> Option<String> {
    if module == target {
        return None;
    }
    let Some(from) = layer_of(module) else {
        return Some(format!(
            "module `{module}` is in no layer: add it to LAYERS"
        ));
    };
    let Some(to) = layer_of(target) else {
        return Some(format!(
            "module `{target}` is in no layer: add it to LAYERS"
        ));
    };
    let allowed = to > from || (to == from && SIDEWAYS.contains(&(module, target)));
    (!allowed).then(|| {
        format!(
            "`{module}` ({}) imports `{target}` ({})",
            LAYERS[from].0, LAYERS[to].0
        )
    })
}

/// The top-level module a file under `src/` belongs to (`status/render.rs` -> `status`).
fn module_of(relative: &Path) -> String {
    let first = relative
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    first.trim_end_matches(".rs").to_owned()
}

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

/// The top-level modules named after each `crate::` (or, in the binary, `mg_server::`) in
/// `lines`, with the 1-based line each path starts on. `use crate::{a::x, b}` names `a` and `b`.
fn imports(lines: &[String], prefix: &str) -> Vec<(usize, String)> {
    let text = lines.join("\n");
    let mut found = Vec::new();
    for (start, _) in text.match_indices(prefix) {
        // `foo_crate::` is not `crate::`.
        let before = text[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let line = text[..start].matches('\n').count() + 1;
        let rest = &text[start + prefix.len()..];
        let names = if let Some(group) = rest.strip_prefix('{') {
            top_level_names(group)
        } else {
            vec![identifier(rest)]
        };
        found.extend(
            names
                .into_iter()
                .filter(|name| !name.is_empty())
                .map(|name| (line, name)),
        );
    }
    found
}

fn identifier(text: &str) -> String {
    text.trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The first identifier of each item of a `{...}` group (`group` starts after the `{`).
fn top_level_names(group: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0;
    let mut item_start = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => item_start = true,
            c if item_start && depth == 0 && !c.is_whitespace() => {
                names.push(identifier(&group[i..]));
                item_start = false;
            }
            _ => {}
        }
    }
    names
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

/// Every import against the layers in the file `relative` (under `src/`) holding `source`.
fn check(relative: &Path, source: &str) -> Vec<String> {
    let module = module_of(relative);
    let prefix = if module == "main" {
        "mg_server::"
    } else {
        "crate::"
    };
    imports(&without_tests_and_comments(source), prefix)
        .into_iter()
        .filter_map(|(line, target)| {
            violation(&module, &target)
                .map(|why| format!("src/{}:{line}: {why}", relative.display()))
        })
        .collect()
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

#[test]
fn no_module_imports_against_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let sources = read_sources(&src);
    assert!(sources.len() > 50, "found the sources: {}", sources.len());
    let test_only = test_only_files(&sources);
    assert!(test_only.contains(&PathBuf::from("layers.rs")));
    let mut problems = Vec::new();
    for (relative, source) in &sources {
        if !test_only.contains(relative) {
            problems.extend(check(relative, source));
        }
    }
    assert!(
        problems.is_empty(),
        "imports against the layers (see src/layers.rs):\n{}",
        problems.join("\n")
    );
}

#[test]
fn same_layer_imports_go_one_way_and_stay_in_their_layer() {
    for (a, b) in SIDEWAYS {
        assert_eq!(layer_of(a), layer_of(b), "{a} -> {b} crosses layers");
        assert!(layer_of(a).is_some(), "{a} is in no layer");
    }
    // No circle among the sideways imports: repeatedly remove a module nothing imports.
    let mut edges: Vec<(&str, &str)> = SIDEWAYS.to_vec();
    while !edges.is_empty() {
        let free = edges
            .iter()
            .map(|(a, _)| *a)
            .find(|a| !edges.iter().any(|(_, b)| b == a));
        let Some(free) = free else {
            panic!("the sideways imports form a circle: {edges:?}");
        };
        edges.retain(|(a, _)| *a != free);
    }
    let mut all: Vec<&str> = LAYERS.iter().flat_map(|(_, m)| m.iter().copied()).collect();
    all.sort_unstable();
    let count = all.len();
    all.dedup();
    assert_eq!(all.len(), count, "a module is in two layers");
}

#[test]
fn the_checker_finds_upward_and_forbidden_imports() {
    let status = Path::new("status/checks.rs");
    // Upward: a feature reaching the startup layer.
    assert_eq!(
        check(status, "use crate::state::AppState;\n"),
        ["src/status/checks.rs:1: `status` (features) imports `state` (startup)"]
    );
    // Sideways but not listed: status must not reach routes or the site, in any spelling.
    let grouped = "use std::sync::Arc;\n\nuse crate::{\n    db::Database,\n    routes::health::X,\n};\nfn f() { crate::site::pages::y(); }\n";
    assert_eq!(
        check(status, grouped),
        [
            "src/status/checks.rs:3: `status` (features) imports `routes` (features)",
            "src/status/checks.rs:7: `status` (features) imports `site` (features)",
        ]
    );
    // The edge never reaches the emulator.
    assert_eq!(
        check(
            Path::new("edge/frontline.rs"),
            "let a = crate::emulator::is_emulator_path(p);"
        )
        .len(),
        1
    );
    // Test modules and comments are not imports; a module missing from the table is reported.
    let tested = "/// See [`x`](crate::startup::app).\n#[cfg(test)]\nmod tests {\n    use crate::startup::app;\n}\n";
    assert!(check(status, tested).is_empty());
    assert_eq!(
        check(Path::new("newthing.rs"), "use crate::db::Database;"),
        ["src/newthing.rs:1: module `newthing` is in no layer: add it to LAYERS"]
    );
    assert!(check(Path::new("main.rs"), "use mg_server::startup::Application;").is_empty());
}
