//! The status request's URL: the whole page, or only what changed since the last answer.

use crate::text::join;

/// The request for the whole page.
pub const PAGE_PATH: &str = "/api/status/page";

/// The page's path; with `since` (the `updated_at` of the answer held), the request for the
/// buckets from that time on.
pub fn page_path(since: Option<&str>) -> String {
    match since {
        Some(since) => join(&[PAGE_PATH, "?since=", &encode_component(since)]),
        None => PAGE_PATH.to_owned(),
    }
}

/// `text` as a URL query value (the server's times need only `:` escaped; anything else outside
/// the unreserved set is escaped too).
pub fn encode_component(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(text.len() + 8);
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 15)]));
        }
    }
    out
}
