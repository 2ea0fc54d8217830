//! The checks every operator field passes: text trimmed and bounded with no control characters,
//! components named once each from those this deployment has. A refusal is shown on the status
//! page as it is: it names the field in the page's words ("The title"), never the API's.

use mg_domain::visible_text;
use mg_platform::error::AppError;

pub(super) fn invalid(message: &str) -> AppError {
    AppError::InvalidField(message.to_owned())
}

/// `value` trimmed, 1 to `max` characters, something visible, no control characters (line breaks
/// and tabs only in multi-line text), no bidi embedding, override or isolate controls (they would
/// turn the page's text around them), and no tall stacks of combining marks.
pub(super) fn text(
    value: &str,
    name: &str,
    max: usize,
    multiline: bool,
) -> Result<String, AppError> {
    let trimmed = value.trim();
    let count = trimmed.chars().count();
    if count == 0 || count > max {
        return Err(invalid(&format!(
            "{name} must be 1 to {max} characters (it has {count})."
        )));
    }
    let allowed = |c: char| !c.is_control() || (multiline && (c == '\n' || c == '\t' || c == '\r'));
    if !trimmed.chars().all(allowed) {
        return Err(invalid(&format!(
            "{name} holds invisible control characters: remove them."
        )));
    }
    if trimmed
        .chars()
        .all(|c| visible_text::is_blank(c) || visible_text::has_no_standard_glyph(c))
    {
        return Err(invalid(&format!("{name} shows nothing.")));
    }
    if trimmed.chars().any(visible_text::steers_direction) {
        return Err(invalid(&format!(
            "{name} holds bidi embedding, override or isolate characters."
        )));
    }
    if visible_text::longest_combining_run(trimmed) > visible_text::MAX_COMBINING_RUN {
        return Err(invalid(&format!(
            "{name} stacks more than {} combining marks on one character.",
            visible_text::MAX_COMBINING_RUN
        )));
    }
    Ok(trimmed.to_owned())
}

/// Component ids of `offered` (this deployment's `(id, name)`: a component it does not check is not
/// one), at least one, each once, joined by commas.
pub(super) fn components(ids: &[String], offered: &[(String, String)]) -> Result<String, AppError> {
    if ids.is_empty() || ids.len() > offered.len() {
        return Err(invalid(&match offered.len() {
            1 => "Choose the affected component.".to_owned(),
            n => format!("Choose 1 to {n} affected components."),
        }));
    }
    let mut chosen: Vec<&str> = Vec::new();
    for id in ids {
        let Some((found, _)) = offered.iter().find(|(known, _)| known == id) else {
            return Err(invalid(&format!(
                "This deployment has no component '{id}': choose among {}.",
                offered
                    .iter()
                    .map(|(_, name)| name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        if chosen.contains(&found.as_str()) {
            return Err(invalid("A component is named twice."));
        }
        chosen.push(found);
    }
    Ok(chosen.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(result: Result<String, AppError>) -> String {
        match result.expect_err("refused") {
            AppError::InvalidField(message) => message,
            other => panic!("not a field refusal: {other:?}"),
        }
    }

    #[test]
    fn text_is_trimmed_bounded_and_free_of_control_characters() {
        assert_eq!(
            text("  Slow  ", "The title", 10, false).expect("ok"),
            "Slow"
        );
        assert_eq!(
            refusal(text("   ", "The title", 10, false)),
            "The title must be 1 to 10 characters (it has 0)."
        );
        assert_eq!(
            refusal(text("a\nb", "The title", 10, false)),
            "The title holds invisible control characters: remove them."
        );
        assert_eq!(text("a\nb", "body", 10, true).expect("ok"), "a\nb");
        assert!(
            text("ééééé", "title", 5, false).is_ok(),
            "characters, not bytes"
        );
    }

    #[test]
    fn components_are_known_named_once_and_kept_in_the_order_given() {
        let ids = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let offered: Vec<(String, String)> = [("api", "API"), ("db", "Database")]
            .iter()
            .map(|(id, name)| ((*id).to_owned(), (*name).to_owned()))
            .collect();
        let components = |list: &[&str]| components(&ids(list), &offered);
        assert_eq!(components(&["db", "api"]).expect("ok"), "db,api");
        assert!(refusal(components(&[])).starts_with("Choose 1 to 2 affected"));
        assert_eq!(
            refusal(components(&["queue"])),
            "This deployment has no component 'queue': choose among API, Database."
        );
        assert!(
            refusal(components(&["disk"])).starts_with("This deployment has no component 'disk'")
        );
        assert_eq!(
            refusal(components(&["db", "db"])),
            "A component is named twice."
        );
    }
}
