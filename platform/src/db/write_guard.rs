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
/// `.await` is the statement's call chain.
fn unguarded_returning(text: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let code = line.trim_start();
        if let Some(at) = line.find("RETURNING") {
            if !code.starts_with("//") {
                let rest = &text[offset + at..];
                let chain = &rest[..rest.find(".await").unwrap_or(rest.len())];
                if chain.contains(".fetch") {
                    found.push(text[..offset].lines().count() + 1);
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
}
