//! One spelling per path, decided before anything else looks at the request: `//pages/x.html`,
//! `/%70ages/x.html`, `/./pages/x.html` and `/pages/x.html` are one path to every rule after it
//! (routing, the prerendered pages, the files). Without this, a rule written for one spelling
//! (raw build files are not served) was walked around by another.

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, CONTROLS};

/// What stays percent-encoded in a normalised path segment: everything that is not a plain
/// path character (RFC 3986 `pchar`), and `%` itself.
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// Why a path has no normal form.
#[derive(Debug, PartialEq, Eq)]
pub enum BadPath {
    /// Its percent-escapes spell bytes that are not UTF-8, or control characters.
    NotText,
    /// A `..` climbs above the root.
    AboveRoot,
}

/// The normal form of `path` when it differs from `path`; `Ok(None)` when it is normal already
/// (the common case, found by one scan without allocating). The normal form has escapes decoded
/// where they spell plain characters, no empty or `.` segments, and `..` resolved; a trailing
/// slash is kept.
pub fn normalized(path: &str) -> Result<Option<String>, BadPath> {
    if !needs_work(path) {
        return Ok(None);
    }
    // Decoded whole, so an escaped slash separates segments as the file server will take it.
    let decoded = percent_decode_str(path)
        .decode_utf8()
        .map_err(|_| BadPath::NotText)?;
    if decoded.chars().any(char::is_control) {
        return Err(BadPath::NotText);
    }
    let mut segments: Vec<String> = Vec::new();
    let mut trailing_slash = false;
    for decoded in decoded.split('/').skip(1) {
        trailing_slash = matches!(decoded, "" | "." | "..");
        match decoded {
            "" | "." => {}
            ".." => {
                segments.pop().ok_or(BadPath::AboveRoot)?;
            }
            _ => segments.push(utf8_percent_encode(decoded, SEGMENT).to_string()),
        }
    }
    let mut normal = String::with_capacity(path.len());
    for segment in &segments {
        normal.push('/');
        normal.push_str(segment);
    }
    if trailing_slash || segments.is_empty() {
        normal.push('/');
    }
    Ok((normal != path).then_some(normal))
}

/// Whether `path` may have another spelling: an escape, an empty segment, or a dot segment.
fn needs_work(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes.first() != Some(&b'/')
        || bytes.contains(&b'%')
        || bytes.windows(2).any(|pair| pair == b"//")
        || path
            .split('/')
            .any(|segment| segment == "." || segment == "..")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_spellings_of_a_path_become_one() {
        for spelling in [
            "//pages/abc.html",
            "/%70ages/abc.html",
            "/./pages/abc.html",
            "/pages/./abc.html",
            "/x/../pages/abc.html",
            "/pages//abc.html",
            "/%2Fpages/abc.html",
        ] {
            assert_eq!(
                normalized(spelling),
                Ok(Some("/pages/abc.html".into())),
                "{spelling}"
            );
        }
        assert_eq!(normalized("//index.html"), Ok(Some("/index.html".into())));
        assert_eq!(normalized("/robots%2etxt"), Ok(Some("/robots.txt".into())));
        assert_eq!(normalized("/mg/./"), Ok(Some("/mg/".into())));
    }

    #[test]
    fn normal_paths_are_left_alone_without_work() {
        for path in [
            "/",
            "/mg/overview",
            "/assets/index-abc.js",
            "/mg/",
            "/a.b/c",
        ] {
            assert_eq!(normalized(path), Ok(None), "{path}");
        }
    }

    #[test]
    fn escapes_of_characters_that_need_them_stay_escaped() {
        assert_eq!(normalized("/a%20b"), Ok(None));
        assert_eq!(normalized("/a%3fb/"), Ok(Some("/a%3Fb/".into())));
        assert_eq!(normalized("/a%2fb"), Ok(Some("/a/b".into())));
        assert_eq!(normalized("/caf%C3%A9"), Ok(None));
        assert_eq!(normalized("/a%25b"), Ok(None));
    }

    #[test]
    fn paths_above_the_root_or_not_text_have_no_normal_form() {
        assert_eq!(normalized("/../etc/passwd"), Err(BadPath::AboveRoot));
        assert_eq!(normalized("/%2e%2e/x"), Err(BadPath::AboveRoot));
        assert_eq!(normalized("/%ff"), Err(BadPath::NotText));
        assert_eq!(normalized("/a%00b"), Err(BadPath::NotText));
    }
}
