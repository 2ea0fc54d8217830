//! No code: this crate only depends, so that its pinned features reach every build of the server
//! (README.md beside it).
