//! Benchmarks of the mg core live in `benches/benches/`; the load bench of the server is `benches/load.sh`.
