//! Empty: cargo reads a crate's [build-dependencies] only when it has a build script, and those pin
//! the features of what the proc-macros and build scripts use (README.md beside it).
fn main() {}
