//! What text shows: the character classes the display-name rule and the status operators' texts
//! refuse, written once (Unicode's properties through ICU4X's baked data).

use icu_properties::{
    props::{BidiClass, DefaultIgnorableCodePoint, GeneralCategory},
    CodePointMapData, CodePointSetData,
};

/// Visible characters whose glyph is empty: a text of only these (and blanks) renders as nothing.
/// U+2800 BRAILLE PATTERN BLANK is a symbol, not a space: neither the whitespace nor the
/// ignorable check catches it.
const BLANK_GLYPHS: [char; 1] = ['\u{2800}'];

/// Combining marks in a row beyond which text is refused: real scripts stack a few (Vietnamese
/// two, Tibetan and Thai up to four), and a tall stack paints over the lines around it.
pub const MAX_COMBINING_RUN: usize = 8;

/// Whitespace, an invisible format character, or a blank glyph. Default_Ignorable_Code_Point holds
/// every invisible format character (U+200B-U+200F, U+2060-U+206F, U+FEFF, U+00AD, tags, variation
/// selectors, fillers). The format characters it leaves out draw a glyph (the prepended
/// concatenation marks such as U+0600) or only annotate others (U+FFF9-U+FFFB, Egyptian format
/// controls).
pub fn is_blank(c: char) -> bool {
    c.is_whitespace()
        || CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
        || BLANK_GLYPHS.contains(&c)
}

/// Characters Unicode gives no glyph of their own: the private-use areas (whatever a font puts
/// there, a vendor logo or a box) and the noncharacters. Ranges, not a table: they are fixed by
/// the standard, and the browser's `.wasm` stays small.
pub fn has_no_standard_glyph(c: char) -> bool {
    let code = u32::from(c);
    matches!(code, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD | 0xFDD0..=0xFDEF)
        || code & 0xFFFE == 0xFFFE
}

/// A bidi embedding, override or isolate control: it turns the text around it (direction marks
/// such as U+200F are not among them; mixed-script text needs them).
pub fn steers_direction(c: char) -> bool {
    matches!(
        CodePointMapData::<BidiClass>::new().get(c),
        BidiClass::LeftToRightEmbedding
            | BidiClass::RightToLeftEmbedding
            | BidiClass::PopDirectionalFormat
            | BidiClass::LeftToRightOverride
            | BidiClass::RightToLeftOverride
            | BidiClass::LeftToRightIsolate
            | BidiClass::RightToLeftIsolate
            | BidiClass::FirstStrongIsolate
            | BidiClass::PopDirectionalIsolate
    )
}

/// The longest run of combining marks (nonspacing or enclosing) in `text`.
pub fn longest_combining_run(text: &str) -> usize {
    let category = CodePointMapData::<GeneralCategory>::new();
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if matches!(
            category.get(c),
            GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark
        ) {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classes_are_unicode_s() {
        assert!(is_blank('\u{200B}') && is_blank(' ') && is_blank('\u{2800}') && !is_blank('a'));
        assert!(has_no_standard_glyph('\u{E000}') && !has_no_standard_glyph('é'));
        assert!(steers_direction('\u{202E}') && steers_direction('\u{2066}'));
        assert!(!steers_direction('\u{200F}'), "a direction mark is allowed");
        assert_eq!(longest_combining_run("Vi\u{1EC7}t"), 0, "precomposed");
        assert_eq!(longest_combining_run("e\u{302}\u{323}"), 2);
        let tall = format!("Z{}", "\u{301}".repeat(99));
        assert_eq!(longest_combining_run(&tall), 99);
    }
}
