//! The binary speaks like a server binary: `--help` and `--version` answer and exit without starting
//! a server or creating its data folder; an unknown argument is refused with a sentence.

use std::process::Command;

fn run_in_empty_folder(arg: &str) -> (std::process::Output, tempfile::TempDir) {
    let folder = tempfile::tempdir().expect("temp dir");
    let output = Command::new(env!("CARGO_BIN_EXE_mg-server"))
        .arg(arg)
        .current_dir(folder.path())
        // A port that would be taken if it started: it must not get that far.
        .env("PORT", "1")
        .output()
        .expect("the binary runs");
    (output, folder)
}

fn nothing_created(folder: &tempfile::TempDir) -> bool {
    std::fs::read_dir(folder.path())
        .expect("readable")
        .next()
        .is_none()
}

#[test]
fn help_lists_every_setting_of_the_readme_and_starts_nothing() {
    let readme = include_str!("../../../README.md");
    let settings: Vec<&str> = readme
        .lines()
        .skip_while(|line| !line.starts_with("| Variable | Default | Meaning |"))
        .skip(2)
        .take_while(|line| line.starts_with("| `"))
        .filter_map(|line| line.split('`').nth(1))
        .collect();
    assert!(
        settings.len() > 20,
        "the README's table was found: {settings:?}"
    );
    for arg in ["--help", "-h"] {
        let (output, folder) = run_in_empty_folder(arg);
        assert!(output.status.success(), "{arg}: {output:?}");
        let help = String::from_utf8(output.stdout).expect("utf-8");
        assert!(help.starts_with("mg-server "), "{help}");
        for name in &settings {
            assert!(help.contains(&format!("{name}=")), "{arg} names {name}");
        }
        assert!(nothing_created(&folder), "{arg} created files");
    }
}

#[test]
fn version_prints_the_version_and_starts_nothing() {
    let (output, folder) = run_in_empty_folder("--version");
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!("mg-server {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(nothing_created(&folder));
}

#[test]
fn an_unknown_argument_is_refused_with_a_sentence() {
    let (output, folder) = run_in_empty_folder("--port=80");
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("unknown argument '--port=80'") && error.contains("--help"),
        "{error}"
    );
    assert!(nothing_created(&folder));
}
