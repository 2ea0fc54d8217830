//! No circle of imports between files, kept by a test over the sources of every crate of the
//! workspace. The compiler keeps the crates in order (a crate cannot import one above it, and cargo
//! refuses a circle of crates); inside a crate it allows any circle, so this looks there: two files of one module that import each other (`a.rs` uses `b::X`, `b.rs` uses `a::Y`)
//! are one piece of code in two files, and each can only be understood with the other.
//!
//! The graph: an edge from file F to the file defining module `m` for every path in F (test modules
//! and comment lines aside) that names `m` or an item of it: `crate::m::..`, `super::..`,
//! `self::..`, or a child module of F's own module by its bare name. A path is resolved to the
//! deepest module that has a file (`crate::status::summary::State` is `status/summary.rs`, the file
//! `State` is declared or re-exported in). A module's `mod` declarations are not edges.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

use crate::source_files::{read_sources, test_only_files, without_tests_and_comments};

/// A module path (`["status", "summary"]`; the crate root is empty).
type Module = Vec<String>;

/// The module a file under a crate's `src/` defines: `lib.rs` the root, `a/mod.rs` and `a.rs` `a`,
/// `a/b.rs` `a::b`. `None` for a file that is not part of the library (`main.rs`, `bin/`).
fn module_of(relative: &Path) -> Option<Module> {
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?;
    if parts.is_empty() && stem == "main" || parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    if !(parts.is_empty() && stem == "lib") && stem != "mod" {
        parts.push(stem.to_owned());
    }
    Some(parts)
}

fn is_identifier_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of a use tree starting at `text` (`a::b::{c, d::e}` gives `a::b::c` and
/// `a::b::d::e`; `self` in a group is the group's own path), and where the tree ends.
fn use_tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let mut prefix = Vec::new();
    let mut at = 0;
    loop {
        let rest = &text[at..];
        let skipped = rest.len() - rest.trim_start().len();
        at += skipped;
        let rest = &text[at..];
        if let Some(group) = rest.strip_prefix('{') {
            at += 1;
            let mut paths = Vec::new();
            let mut inner = 0;
            loop {
                let item = &group[inner..];
                let item_start = item.len() - item.trim_start().len();
                if item[item_start..].starts_with('}') {
                    inner += item_start + 1;
                    break;
                }
                let (found, used) = use_tree(&item[item_start..]);
                for path in found {
                    let mut full = prefix.clone();
                    full.extend(path.into_iter().filter(|segment| segment != "self"));
                    paths.push(full);
                }
                inner += item_start + used;
                let after = &group[inner..];
                let blank = after.len() - after.trim_start().len();
                inner += blank;
                if group[inner..].starts_with(',') {
                    inner += 1;
                } else {
                    if group[inner..].starts_with('}') {
                        inner += 1;
                    }
                    break;
                }
            }
            return (paths, at + inner);
        }
        let name: String = rest
            .chars()
            .take_while(|c| is_identifier_char(*c))
            .collect();
        if name.is_empty() {
            // `*` or the end of the path.
            if rest.starts_with('*') {
                at += 1;
            }
            return (vec![prefix], at);
        }
        at += name.len();
        prefix.push(name);
        if text[at..].starts_with("::") {
            at += 2;
        } else {
            // `as alias` and the rest of the statement are not part of the path.
            return (vec![prefix], at);
        }
    }
}

/// Every path in `code` that starts at `crate`, `super`, `self` or one of `children` (the bare
/// names of the file's child modules), as written. `use` statements are read as trees; elsewhere a
/// path is a run of `name::` segments.
fn paths_in(code: &str, children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mode = std::env::var("FC_MODE").unwrap_or_default();
    let starts_a_path = |name: &str| match mode.as_str() {
        "A" => matches!(name, "crate" | "super"),
        "B" => matches!(name, "crate" | "super" | "self"),
        _ => matches!(name, "crate" | "super" | "self") || children.contains(name),
    };
    let mut found = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let Some(c) = rest.chars().next() else { break };
        let before = code[..at].chars().next_back();
        let fresh = before.is_none_or(|b| !is_identifier_char(b) && b != ':');
        if fresh && is_identifier_char(c) {
            let word: String = rest
                .chars()
                .take_while(|c| is_identifier_char(*c))
                .collect();
            let after = &rest[word.len()..];
            if word == "use" && after.starts_with(char::is_whitespace) {
                let (paths, used) = use_tree(after);
                found.extend(
                    paths
                        .into_iter()
                        .filter(|p| p.first().is_some_and(|s| starts_a_path(s))),
                );
                at += word.len() + used;
                continue;
            }
            if starts_a_path(&word) && after.starts_with("::") {
                let (paths, used) = use_tree(rest);
                found.extend(paths);
                at += used.max(word.len());
                continue;
            }
            at += word.len();
            continue;
        }
        at += c.len_utf8();
    }
    found
}

/// The module `path` names from inside `module`, as deep as `modules` has files for.
fn resolve(module: &Module, path: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    let mut segments = path.iter().peekable();
    let mut current = match segments.peek().map(|s| s.as_str()) {
        Some("crate") => {
            segments.next();
            Vec::new()
        }
        Some("self") => {
            segments.next();
            module.clone()
        }
        Some("super") => module.clone(),
        Some(_) => module.clone(),
        None => return None,
    };
    while let Some(segment) = segments.peek() {
        if *segment == "super" {
            current.pop()?;
            segments.next();
        } else {
            break;
        }
    }
    for segment in segments {
        let mut deeper = current.clone();
        deeper.push(segment.clone());
        if !modules.contains(&deeper) {
            break;
        }
        current = deeper;
    }
    Some(current)
}

/// The file-to-file import graph of one crate's sources (paths relative to its `src/`); files of
/// test modules are left out.
fn graph(sources: &[(PathBuf, String)]) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let test_only = test_only_files(sources);
    let files: BTreeMap<Module, &PathBuf> = sources
        .iter()
        .filter(|(relative, _)| !test_only.contains(relative))
        .filter_map(|(relative, _)| Some((module_of(relative)?, relative)))
        .collect();
    let modules: BTreeSet<Module> = files.keys().cloned().collect();
    let mut edges = BTreeMap::new();
    for (relative, source) in sources {
        let Some(module) = module_of(relative).filter(|_| !test_only.contains(relative)) else {
            continue;
        };
        let children: BTreeSet<String> = modules
            .iter()
            .filter(|m| m.len() == module.len() + 1 && m.starts_with(&module))
            .filter_map(|m| m.last().cloned())
            .collect();
        let code = without_tests_and_comments(source).join("\n");
        let targets: BTreeSet<PathBuf> = paths_in(&code, &children)
            .iter()
            .filter_map(|path| resolve(&module, path, &modules))
            .filter_map(|target| files.get(&target).map(|file| (*file).clone()))
            .filter(|file| file != relative)
            .collect();
        edges.insert(relative.clone(), targets);
    }
    edges
}

/// A circle of the graph (first file repeated at the end), if there is one.
fn circle(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Option<Vec<PathBuf>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Seen {
        Open,
        Done,
    }
    fn visit(
        file: &PathBuf,
        edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        seen: &mut BTreeMap<PathBuf, Seen>,
        stack: &mut Vec<PathBuf>,
    ) -> Option<Vec<PathBuf>> {
        seen.insert(file.clone(), Seen::Open);
        stack.push(file.clone());
        for next in edges.get(file).into_iter().flatten() {
            match seen.get(next) {
                Some(Seen::Open) => {
                    let from = stack.iter().position(|f| f == next)?;
                    let mut found = stack[from..].to_vec();
                    found.push(next.clone());
                    return Some(found);
                }
                Some(Seen::Done) => {}
                None => {
                    if let Some(found) = visit(next, edges, seen, stack) {
                        return Some(found);
                    }
                }
            }
        }
        stack.pop();
        seen.insert(file.clone(), Seen::Done);
        None
    }
    let mut seen = BTreeMap::new();
    for file in edges.keys() {
        if !seen.contains_key(file) {
            if let Some(found) = visit(file, edges, &mut seen, &mut Vec::new()) {
                return Some(found);
            }
        }
    }
    None
}

fn named(found: &[PathBuf], root: &str) -> String {
    found
        .iter()
        .map(|file| format!("{root}/{}", file.display()))
        .collect::<Vec<_>>()
        .join(" -> ")
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found_edges = 0;
    for root in [
        "domain/src",
        "platform/src",
        "status-formats/src",
        "status/src",
        "emulator/src",
        "server/src",
        "core-wasm/src",
    ] {
        let sources = read_sources(&repository.join(root));
        let edges = graph(&sources);
        found_edges += edges.values().map(BTreeSet::len).sum::<usize>();
        if let Some(found) = circle(&edges) {
            panic!(
                "files that import each other (see src/file_cycles.rs): {}",
                named(&found, root)
            );
        }
    }
    assert!(found_edges > 200, "the imports were found: {found_edges}");
}

#[test]
fn the_checker_resolves_every_spelling_and_finds_a_circle() {
    let sources: Vec<(PathBuf, String)> = [
        ("lib.rs", "pub mod a;\npub mod b;\n#[cfg(test)]\nmod t;\n"),
        (
            "a/mod.rs",
            "mod child;\nuse self::child::X;\nfn f() { child::g(); }\n",
        ),
        (
            "a/child.rs",
            "// use crate::b::Nothing;\nuse super::super::b::{self, Y};\n",
        ),
        ("b.rs", "use std::{fmt, time};\nfn g() { crate::a::h(); }\n"),
        ("t.rs", "use crate::a::child::X;\n"),
    ]
    .into_iter()
    .map(|(path, text)| (PathBuf::from(path), text.to_owned()))
    .collect();
    let edges = graph(&sources);
    let targets = |file: &str| -> Vec<String> {
        edges[&PathBuf::from(file)]
            .iter()
            .map(|p| p.display().to_string())
            .collect()
    };
    assert_eq!(targets("a/mod.rs"), ["a/child.rs"]);
    assert_eq!(targets("a/child.rs"), ["b.rs"]);
    assert_eq!(targets("b.rs"), ["a/mod.rs"]);
    assert!(
        !edges.contains_key(&PathBuf::from("t.rs")),
        "test files are left out"
    );
    let found = circle(&edges).expect("a circle");
    assert_eq!(
        named(&found, "src"),
        "src/a/child.rs -> src/b.rs -> src/a/mod.rs -> src/a/child.rs"
    );
    let mut broken = edges.clone();
    broken.insert(PathBuf::from("b.rs"), BTreeSet::new());
    assert_eq!(circle(&broken), None);
}
