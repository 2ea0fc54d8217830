//! The criterion benches live in `benches/benches/`, their helper programs in `benches/examples/`;
//! every bench of the project, and how to run it: `benches/README.md`.
