//! Two string helpers that keep `core::fmt` and the two-way substring searcher (with their panic
//! message formatting) out of the .wasm; they give the same results as `format!` of string pieces
//! and `str::contains`.

/// The pieces one after another, as `format!("{a}{b}")` writes them.
pub(crate) fn join(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for part in parts {
        out.push_str(part);
    }
    out
}

/// True when `needle` occurs in `haystack` (a match of UTF-8 bytes is a match of characters).
pub(crate) fn contains(haystack: &str, needle: &str) -> bool {
    needle.is_empty()
        || haystack
            .as_bytes()
            .windows(needle.len())
            .any(|window| window == needle.as_bytes())
}

// Host only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn join_is_format(a in "\\PC{0,8}", b in "\\PC{0,8}") {
            prop_assert_eq!(join(&["x: ", &a, &b]), format!("x: {a}{b}"));
        }

        #[test]
        fn contains_is_str_contains(haystack in "[aé😀b ]{0,12}", needle in "[aé😀b ]{0,3}") {
            prop_assert_eq!(contains(&haystack, &needle), haystack.contains(needle.as_str()));
        }
    }
}
