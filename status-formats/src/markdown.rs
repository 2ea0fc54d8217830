//! Operators' Markdown to HTML that is safe to put in a page as it is: CommonMark (with
//! strikethrough) rendered by pulldown-cmark, whose renderer escapes all text, after raw HTML has
//! been turned into text, images into their alt text, and links to anything but absolute http(s)
//! or mailto URLs into their text. Nothing the operator types becomes a tag, an attribute or a
//! script; the tests try.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

/// The schemes a link may have.
const LINK_SCHEMES: [&str; 3] = ["http", "https", "mailto"];

/// `markdown` as safe HTML.
pub fn to_safe_html(markdown: &str) -> String {
    let mut dropping_link = false;
    let events = Parser::new_ext(markdown, Options::ENABLE_STRIKETHROUGH).filter_map(|event| {
        Some(match event {
            Event::Html(text) | Event::InlineHtml(text) => Event::Text(text),
            Event::Start(Tag::HtmlBlock) => Event::Start(Tag::Paragraph),
            Event::End(TagEnd::HtmlBlock) => Event::End(TagEnd::Paragraph),
            Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => return None,
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => match safe_url(&dest_url) {
                Some(url) => Event::Start(Tag::Link {
                    link_type,
                    dest_url: CowStr::from(url),
                    title,
                    id,
                }),
                None => {
                    dropping_link = true;
                    return None;
                }
            },
            Event::End(TagEnd::Link) if dropping_link => {
                dropping_link = false;
                return None;
            }
            other => other,
        })
    });
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

/// The URL normalised (as a browser reads it) when it is absolute and has an allowed scheme.
fn safe_url(text: &str) -> Option<String> {
    let url = url::Url::parse(text).ok()?;
    LINK_SCHEMES
        .contains(&url.scheme())
        .then(|| url.to_string())
}

#[cfg(test)]
mod tests {
    use super::to_safe_html;
    use proptest::prelude::*;

    #[test]
    fn markdown_is_rendered() {
        assert_eq!(
            to_safe_html("We are **investigating** slow sign-ins."),
            "<p>We are <strong>investigating</strong> slow sign-ins.</p>\n"
        );
        assert_eq!(
            to_safe_html("[runbook](https://example.com/a?b=1&c=2)"),
            "<p><a href=\"https://example.com/a?b=1&amp;c=2\">runbook</a></p>\n"
        );
    }

    #[test]
    fn raw_html_scripts_and_bad_links_do_not_pass() {
        for hostile in [
            "<script>alert(1)</script>",
            "text <img src=x onerror=alert(1)> more",
            "<div onclick=\"x()\">block</div>",
            "[click](javascript:alert(1))",
            "[click](jav&#x09;ascript:alert(1))",
            "[click](  JaVaScRiPt:alert(1))",
            "[click](data:text/html;base64,PHNjcmlwdD4=)",
            "![x](https://example.com/track.png)",
            "<a href=\"javascript:x()\">a</a>",
            "[x]: javascript:alert(1)\n\n[x]",
            "<svg/onload=alert(1)>",
            "`<script>`",
        ] {
            let html = to_safe_html(hostile);
            let lower = html.to_ascii_lowercase();
            for tag in [
                "<script",
                "<img",
                "<div",
                "<svg",
                "<a href=\"javascript",
                "<a href=\"data",
            ] {
                assert!(!lower.contains(tag), "{hostile:?} gave {html:?}");
            }
            for href in lower.split("<a href=\"").skip(1) {
                assert!(href.starts_with("https://"), "{hostile:?} gave {html:?}");
            }
        }
    }

    proptest! {
        /// Whatever the text, the only tags are the renderer's own and every href is http(s) or mailto.
        #[test]
        fn any_text_gives_only_known_tags(text in ".{0,200}") {
            let html = to_safe_html(&text);
            let allowed = [
                "p", "/p", "em", "/em", "strong", "/strong", "del", "/del", "code", "/code", "pre",
                "/pre", "ul", "/ul", "ol", "/ol", "li", "/li", "blockquote", "/blockquote", "a",
                "/a", "h1", "/h1", "h2", "/h2", "h3", "/h3", "h4", "/h4", "h5", "/h5", "h6", "/h6",
                "hr", "br",
            ];
            for tag in html.split('<').skip(1) {
                let name: String = tag
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '/')
                    .collect();
                prop_assert!(allowed.contains(&name.as_str()), "{:?} in {:?}", name, html);
            }
            for href in html.split("<a href=\"").skip(1) {
                prop_assert!(
                    href.starts_with("http://") || href.starts_with("https://") || href.starts_with("mailto:"),
                    "{:?}", html
                );
            }
        }
    }
}
