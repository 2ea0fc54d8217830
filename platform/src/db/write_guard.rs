//! A check on the source: every SQL statement that writes and returns rows (`... RETURNING`) goes
//! through `Database::commit_returning`, so no save answers before its commit succeeded.

use std::path::Path;

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path, found: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("read the source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("read a source file");
            found.push((path.display().to_string(), text));
        }
    }
}

/// The places in `text` where a `RETURNING` statement (outside comments) is read by a fetch of its
/// own instead of being handed to `commit_returning`: the code from the keyword to the next
/// `.await` is the statement's call chain. A statement that is a constant's value is checked where
/// the constant is used, each use's chain from its name to the next `.await`.
fn unguarded_returning(text: &str) -> Vec<usize> {
    let line_of = |at: usize| text[..at].lines().count();
    let fetched = |from: usize| {
        let rest = &text[from..];
        rest[..rest.find(".await").unwrap_or(rest.len())].contains(".fetch")
    };
    let mut found = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let code = line.trim_start();
        if let Some(at) = line.find("RETURNING") {
            if !code.starts_with("//") {
                let before = &text[..offset + at];
                match before
                    .rfind("const ")
                    .filter(|&c| !before[c..].contains(';'))
                {
                    Some(start) => {
                        let name = before[start + "const ".len()..]
                            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                            .next()
                            .unwrap_or_default();
                        let end = start + text[start..].find(';').unwrap_or(0);
                        for (used, _) in text[end..].match_indices(name) {
                            if fetched(end + used) {
                                found.push(line_of(end + used + 1));
                            }
                        }
                    }
                    None if fetched(offset + at) => found.push(line_of(offset) + 1),
                    None => {}
                }
            }
        }
        offset += line.len();
    }
    found
}

#[test]
fn every_returning_write_is_committed_before_its_row_is_used() {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let offenders: Vec<String> = files
        .iter()
        .filter(|(path, _)| !path.ends_with("write_guard.rs"))
        .flat_map(|(path, text)| {
            unguarded_returning(text)
                .into_iter()
                .map(move |line| format!("{path}:{line}"))
        })
        .collect();
    assert!(
        offenders.is_empty(),
        "a RETURNING statement is fetched outside Database::commit_returning, so a failed commit \
         could answer with a row never stored: {offenders:?}"
    );
}

#[test]
fn the_check_finds_a_fetched_returning_and_passes_a_committed_one() {
    let fetched = "let row = sqlx::query_as(\"INSERT INTO t VALUES (1) RETURNING id\")\n    .fetch_one(pool)\n    .await?;\n";
    assert_eq!(unguarded_returning(fetched), vec![1]);
    let committed = "let q = sqlx::query_as(\"UPDATE t SET a = 1 RETURNING a\");\nself.commit_returning(q).await\n";
    assert!(unguarded_returning(committed).is_empty());
    let comment = "/// `INSERT ... RETURNING` goes through here\nx.fetch_one(y).await\n";
    assert!(unguarded_returning(comment).is_empty());
    let constant = "const SAVE: &str = \"UPDATE t SET a = 1 \\\n RETURNING a\";\n\
        fn a() { self.commit_returning(sqlx::query_as(SAVE)).await }\n\
        fn b() { sqlx::query_as(SAVE)\n.fetch_one(pool).await }\n";
    assert_eq!(unguarded_returning(constant), vec![4]);
}
