//! Reading what a request asks for: `Accept` (HTML or the Markdown twin), `Accept-Encoding` and
//! `If-None-Match`.

use std::cell::RefCell;

use axum::{
    extract::FromRequestParts,
    http::{header, request::Parts, HeaderMap, HeaderValue},
};

/// The body encodings the server keeps of each precomputed answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Identity,
    Gzip,
    Brotli,
}

/// The items of a comma-separated header list with their `q` weight (1 when absent; an item
/// with an unreadable weight counts as refused). Tokens are borrowed as sent: compare them with
/// `eq_ignore_ascii_case`. Nothing is allocated: this runs on every document request.
fn weighted(headers: &HeaderMap, name: header::HeaderName) -> impl Iterator<Item = (&[u8], f32)> {
    headers
        .get_all(name)
        .into_iter()
        .flat_map(|value| value.as_bytes().split(|&b| b == b','))
        .filter_map(|item| {
            let mut parts = item.split(|&b| b == b';');
            let token = parts.next()?.trim_ascii();
            if token.is_empty() {
                return None;
            }
            let mut q = 1.0;
            for parameter in parts {
                let parameter = parameter.trim_ascii();
                if let [b'q' | b'Q', rest @ ..] = parameter {
                    if let [b'=', value @ ..] = rest.trim_ascii_start() {
                        q = qvalue(value.trim_ascii()).unwrap_or(0.0);
                    }
                }
            }
            Some((token, q))
        })
}

/// A weight as RFC 9110 writes it (`0`, `0.5`, `1`, `1.000`; at most three decimals), or `None`.
fn qvalue(text: &[u8]) -> Option<f32> {
    let (whole, decimals) = match text {
        [whole, b'.', decimals @ ..] => (*whole, decimals),
        [whole] => (*whole, &[][..]),
        _ => return None,
    };
    if decimals.len() > 3 || !decimals.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let thousandths = decimals
        .iter()
        .chain(std::iter::repeat(&b'0'))
        .take(3)
        .fold(0u32, |n, digit| n * 10 + u32::from(digit - b'0'));
    match whole {
        b'0' => Some(thousandths as f32 / 1000.0),
        b'1' if thousandths == 0 => Some(1.0),
        _ => None,
    }
}

/// A header value a thread read last, and what was decided from it.
type Last<T> = RefCell<Option<(Box<[u8]>, T)>>;

thread_local! {
    /// The last `Accept-Encoding` value this thread read, and what it chose.
    static LAST_ENCODING: Last<Encoding> = const { RefCell::new(None) };
    /// The last `Accept` value this thread read, and whether it preferred Markdown.
    static LAST_ACCEPT: Last<bool> = const { RefCell::new(None) };
}

/// `decide(headers)`, remembered per thread for the last single value of `name`: a browser sends
/// the same header on every request, and comparing its bytes costs less than reading it again.
fn remembered<T: Copy + 'static>(
    last: &'static std::thread::LocalKey<Last<T>>,
    headers: &HeaderMap,
    name: header::HeaderName,
    decide: fn(&HeaderMap) -> T,
) -> T {
    let mut values = headers.get_all(&name).iter();
    let (Some(value), None) = (values.next(), values.next()) else {
        return decide(headers);
    };
    let bytes = value.as_bytes();
    last.with(|last| {
        if let Ok(mut last) = last.try_borrow_mut() {
            if let Some((seen, answer)) = last.as_ref() {
                if **seen == *bytes {
                    return *answer;
                }
            }
            let answer = decide(headers);
            // Only ordinary header sizes are kept (a value is at most the 32 KiB head anyway).
            if bytes.len() <= 1024 {
                *last = Some((bytes.into(), answer));
            }
            answer
        } else {
            decide(headers)
        }
    })
}

/// The best encoding the request accepts: Brotli or gzip (the higher weight; Brotli on a tie),
/// else none.
pub fn encoding(headers: &HeaderMap) -> Encoding {
    remembered(
        &LAST_ENCODING,
        headers,
        header::ACCEPT_ENCODING,
        encoding_of,
    )
}

fn encoding_of(headers: &HeaderMap) -> Encoding {
    let (mut brotli, mut gzip, mut any) = (None, None, None);
    for (token, q) in weighted(headers, header::ACCEPT_ENCODING) {
        if token.eq_ignore_ascii_case(b"br") {
            brotli = Some(q);
        } else if token.eq_ignore_ascii_case(b"gzip") || token.eq_ignore_ascii_case(b"x-gzip") {
            gzip = Some(q);
        } else if token == b"*" {
            any = Some(q);
        }
    }
    let brotli = brotli.or(any).unwrap_or(0.0);
    let gzip = gzip.or(any).unwrap_or(0.0);
    match (brotli, gzip) {
        (b, g) if b > 0.0 && b >= g => Encoding::Brotli,
        (_, g) if g > 0.0 => Encoding::Gzip,
        _ => Encoding::Identity,
    }
}

/// How much a request wants one media type (`type/subtype`): the weight of the most specific
/// range that matches it, whether it is named outright, and where it is named.
#[derive(Debug, Clone, Copy)]
struct Preference {
    /// 3 named outright, 2 `type/*`, 1 `*/*`, 0 not matched.
    specificity: u8,
    q: f32,
    position: usize,
}

impl Preference {
    const NONE: Self = Self {
        specificity: 0,
        q: 0.0,
        position: usize::MAX,
    };

    /// Takes `range` (at `position`, weighing `q`) into account for `media` of kind `kind`.
    fn consider(&mut self, media: &[u8], kind: &[u8], range: &[u8], q: f32, position: usize) {
        let specificity = if range.eq_ignore_ascii_case(media) {
            3
        } else if range
            .strip_suffix(b"/*")
            .is_some_and(|range| range.eq_ignore_ascii_case(kind))
        {
            2
        } else if range == b"*/*" {
            1
        } else {
            return;
        };
        if specificity > self.specificity {
            *self = Self {
                specificity,
                q,
                position,
            };
        }
    }

    fn named(&self) -> bool {
        self.specificity == 3
    }
}

/// Whether the request prefers `text/markdown` to `text/html`: a higher weight, or the same
/// weight with Markdown named outright (and before HTML when both are). No `Accept`, `*/*` or
/// `text/html, text/markdown;q=0.5` get HTML. One pass over `Accept`.
pub fn prefers_markdown(headers: &HeaderMap) -> bool {
    remembered(&LAST_ACCEPT, headers, header::ACCEPT, markdown_preferred)
}

fn markdown_preferred(headers: &HeaderMap) -> bool {
    let (mut markdown, mut html) = (Preference::NONE, Preference::NONE);
    for (position, (range, q)) in weighted(headers, header::ACCEPT).enumerate() {
        markdown.consider(b"text/markdown", b"text", range, q, position);
        html.consider(b"text/html", b"text", range, q, position);
    }
    if markdown.q <= 0.0 {
        return false;
    }
    markdown.q > html.q
        || (markdown.q == html.q
            && markdown.named()
            && (!html.named() || markdown.position < html.position))
}

/// Whether `If-None-Match` names one of `tags` (or is `*`). Weak tags compare by their opaque part,
/// as RFC 9110 says for this header.
pub fn none_match(headers: &HeaderMap, tags: &[&HeaderValue]) -> bool {
    names_a_tag(headers.get_all(header::IF_NONE_MATCH), tags)
}

/// Whether these `If-None-Match` values name one of `tags` (or are `*`).
pub fn names_a_tag<'a>(
    values: impl IntoIterator<Item = &'a HeaderValue>,
    tags: &[&HeaderValue],
) -> bool {
    values
        .into_iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .any(|tag| {
            tag == "*" || {
                let opaque = tag.strip_prefix("W/").unwrap_or(tag);
                tags.iter().any(|ours| ours.as_bytes() == opaque.as_bytes())
            }
        })
}

/// What a status request says about caching and encoding: its `If-None-Match` values (none,
/// usually: then nothing is copied) and the best encoding it accepts.
#[derive(Debug)]
pub struct IfNoneMatch {
    pub tags: Vec<HeaderValue>,
    pub encoding: Encoding,
}

impl<S: Send + Sync> FromRequestParts<S> for IfNoneMatch {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Self {
            tags: parts
                .headers
                .get_all(header::IF_NONE_MATCH)
                .iter()
                .cloned()
                .collect(),
            encoding: encoding(&parts.headers),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(name.clone(), HeaderValue::from_str(value).expect("value"));
        }
        map
    }

    #[test]
    fn markdown_only_when_preferred_over_html() {
        let accept = |value: &str| prefers_markdown(&headers(&[(header::ACCEPT, value)]));
        assert!(accept("text/markdown"));
        assert!(accept("text/markdown, text/html;q=0.9"));
        assert!(accept("text/markdown, */*"));
        assert!(accept("text/markdown, text/html"));
        assert!(accept("text/plain, text/markdown;q=0.9, text/html;q=0.8"));
        assert!(!accept("text/html, text/markdown;q=0.5"));
        assert!(!accept("text/html, text/markdown"));
        assert!(!accept(
            "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
        ));
        assert!(!accept("*/*"));
        assert!(!accept("text/*"));
        assert!(!accept("text/markdown;q=0"));
        assert!(!accept("text/markdown;q=nonsense"));
        assert!(!accept("text/markdown;q=1.5"));
        assert!(!accept("text/markdown;q=0.0001"));
        assert!(accept("TEXT/Markdown, text/html;Q=0.9"));
        assert!(accept("text/markdown;q=0.901, text/html;q=0.9"));
        assert!(accept("text/*, text/html;q=0.5"));
        assert!(accept("text/html;q=0.1, */*"));
        assert!(!prefers_markdown(&HeaderMap::new()));
    }

    #[test]
    fn a_remembered_answer_is_only_reused_for_the_same_value() {
        let accept = |value: &str| prefers_markdown(&headers(&[(header::ACCEPT, value)]));
        for _ in 0..3 {
            assert!(accept("text/markdown"));
            assert!(accept("text/markdown"));
            assert!(!accept("text/html"));
            assert!(!accept("text/html"));
        }
        let both = headers(&[
            (header::ACCEPT, "text/html;q=0.5"),
            (header::ACCEPT, "text/markdown"),
        ]);
        assert!(prefers_markdown(&both), "two values are read as one list");
        // A long value is read, not kept: what a thread holds stays small.
        let long = format!("text/markdown, {}", "x-custom/type;q=0.1, ".repeat(100));
        assert!(accept(&long));
        let kept = LAST_ACCEPT.with(|last| last.borrow().as_ref().map(|(value, _)| value.len()));
        assert!(kept.is_some_and(|len| len <= 1024), "{kept:?}");
        assert!(!accept("text/html"));
        let encoding = |value: &str| encoding(&headers(&[(header::ACCEPT_ENCODING, value)]));
        assert_eq!(encoding("gzip"), Encoding::Gzip);
        assert_eq!(encoding("br"), Encoding::Brotli);
        assert_eq!(encoding("gzip"), Encoding::Gzip);
    }

    #[test]
    fn brotli_then_gzip_then_nothing() {
        let accept = |value: &str| encoding(&headers(&[(header::ACCEPT_ENCODING, value)]));
        assert_eq!(accept("gzip, deflate, br, zstd"), Encoding::Brotli);
        assert_eq!(accept("gzip"), Encoding::Gzip);
        assert_eq!(accept("br;q=0.5, gzip"), Encoding::Gzip);
        assert_eq!(accept("br;q=0, gzip;q=0"), Encoding::Identity);
        assert_eq!(accept("*"), Encoding::Brotli);
        assert_eq!(accept("identity"), Encoding::Identity);
        assert_eq!(accept("BR;Q=1.000, GZIP;q=0.5"), Encoding::Brotli);
        assert_eq!(accept("br;q=0.001, gzip;q=0.002"), Encoding::Gzip);
        assert_eq!(accept("br;q=2, gzip"), Encoding::Gzip);
        assert_eq!(encoding(&HeaderMap::new()), Encoding::Identity);
    }

    #[test]
    fn if_none_match_names_a_tag_or_any() {
        let ours = HeaderValue::from_static("\"abc\"");
        let other = HeaderValue::from_static("\"abc-br\"");
        let matches = |value: &str| {
            none_match(
                &headers(&[(header::IF_NONE_MATCH, value)]),
                &[&ours, &other],
            )
        };
        assert!(matches("\"abc\""));
        assert!(matches("\"x\", \"abc-br\""));
        assert!(matches("W/\"abc\""));
        assert!(matches("*"));
        assert!(!matches("\"abd\""));
        assert!(!matches("abc"));
        assert!(!none_match(&HeaderMap::new(), &[&ours]));
    }
}
