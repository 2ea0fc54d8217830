//! Text put into HTML or XML the server writes itself (the identity emulator's sign-in page, the
//! values filled into prerendered pages, the status badges' SVG and the incidents' Atom feed).

/// `text` safe inside HTML or XML element content and quoted attribute values: the five special
/// characters as references (`&#39;` is understood by both), and control characters other than tab
/// and line breaks left out, with the noncharacters U+FFFE and U+FFFF (XML 1.0 allows none of
/// them, so one would make a feed not well-formed; HTML shows nothing for them).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => {}
            '\u{FFFE}' | '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_special_characters_are_escaped() {
        assert_eq!(
            escape(r#"<script>"a" & 'b'</script>"#),
            "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;"
        );
    }

    #[test]
    fn control_characters_are_left_out_but_tabs_and_line_breaks_kept() {
        assert_eq!(escape("a\u{0}b\u{1b}c\u{7f}d"), "abcd");
        assert_eq!(escape("a\tb\nc\r\nd"), "a\tb\nc\r\nd");
        assert_eq!(escape("a\u{FFFE}b\u{FFFF}c\u{FFFD}"), "abc\u{FFFD}");
    }
}
