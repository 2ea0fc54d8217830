// sqlx's `migrate!` embeds the migration files at compile time; on stable Rust it cannot tell
// cargo to watch them, so this does: a new or changed migration rebuilds the crate.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
