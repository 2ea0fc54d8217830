//! Reading what a request asks for: `Accept` (HTML or the Markdown twin), `Accept-Encoding` and
//! `If-None-Match`.

use axum::http::{header, HeaderMap, HeaderValue};

/// The body encodings the server keeps of each precomputed answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Identity,
    Gzip,
    Brotli,
}

/// The items of a comma-separated header list with their `q` weight (1 when absent; an item
/// with an unreadable weight counts as refused).
fn weighted(
    headers: &HeaderMap,
    name: header::HeaderName,
) -> impl Iterator<Item = (String, f32)> + '_ {
    headers
        .get_all(name)
        .into_iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|item| {
            let mut parts = item.split(';');
            let token = parts.next()?.trim().to_ascii_lowercase();
            if token.is_empty() {
                return None;
            }
            let mut q = 1.0;
            for parameter in parts {
                if let Some((key, value)) = parameter.split_once('=') {
                    if key.trim().eq_ignore_ascii_case("q") {
                        q = value
                            .trim()
                            .parse::<f32>()
                            .ok()
                            .filter(|q| (0.0..=1.0).contains(q))
                            .unwrap_or(0.0);
                    }
                }
            }
            Some((token, q))
        })
}

/// The best encoding the request accepts: Brotli or gzip (the higher weight; Brotli on a tie),
/// else none.
pub fn encoding(headers: &HeaderMap) -> Encoding {
    let (mut brotli, mut gzip, mut any) = (None, None, None);
    for (token, q) in weighted(headers, header::ACCEPT_ENCODING) {
        match token.as_str() {
            "br" => brotli = Some(q),
            "gzip" | "x-gzip" => gzip = Some(q),
            "*" => any = Some(q),
            _ => {}
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

/// How much the request wants `media` (`type/subtype`): the weight of the most specific range
/// that matches it, whether it is named outright, and where it is named.
fn preference(headers: &HeaderMap, media: &str) -> (f32, bool, usize) {
    let kind = media.split('/').next().unwrap_or_default();
    let mut best: Option<(u8, f32, usize)> = None;
    for (position, (range, q)) in weighted(headers, header::ACCEPT).enumerate() {
        let specificity = if range == media {
            3
        } else if range.strip_suffix("/*") == Some(kind) {
            2
        } else if range == "*/*" {
            1
        } else {
            continue;
        };
        if best.is_none_or(|(known, _, _)| specificity > known) {
            best = Some((specificity, q, position));
        }
    }
    match best {
        Some((specificity, q, position)) => (q, specificity == 3, position),
        None => (0.0, false, usize::MAX),
    }
}

/// Whether the request prefers `text/markdown` to `text/html`: a higher weight, or the same
/// weight with Markdown named outright (and before HTML when both are). No `Accept`, `*/*` or
/// `text/html, text/markdown;q=0.5` get HTML.
pub fn prefers_markdown(headers: &HeaderMap) -> bool {
    let (markdown, markdown_named, markdown_at) = preference(headers, "text/markdown");
    let (html, html_named, html_at) = preference(headers, "text/html");
    if markdown <= 0.0 {
        return false;
    }
    markdown > html
        || (markdown == html && markdown_named && (!html_named || markdown_at < html_at))
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
        assert!(!prefers_markdown(&HeaderMap::new()));
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
