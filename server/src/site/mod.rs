//! The app's site: its documents (`pages`), its other files (`static_files`), the directory both
//! are found in (`root`) and the manifest of the client's routes (`route_manifest`).

pub mod pages;
pub mod root;
pub mod route_manifest;
pub mod static_files;
