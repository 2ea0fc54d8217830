//! Which issuers' tokens belong to the project: the `iss` rule of the session-token contract.

/// `iss` is the project id itself, or a URL whose last or second-to-last path segment is it.
pub fn issuer_matches(issuer: &str, project_id: &str) -> bool {
    if issuer == project_id {
        return true;
    }
    let Some(rest) = issuer
        .strip_prefix("https://")
        .or_else(|| issuer.strip_prefix("http://"))
    else {
        return false;
    };
    let path = rest.split(['?', '#']).next().unwrap_or("");
    // The first segment is the host; only path segments count.
    let segments: Vec<&str> = path.split('/').skip(1).filter(|s| !s.is_empty()).collect();
    let n = segments.len();
    (n >= 1 && segments[n - 1] == project_id) || (n >= 2 && segments[n - 2] == project_id)
}

#[cfg(test)]
mod tests {
    use super::issuer_matches;

    #[test]
    fn the_issuer_may_be_the_project_id_or_a_url_ending_in_it() {
        assert!(issuer_matches("P123", "P123"));
        assert!(issuer_matches("https://api.example.com/P123", "P123"));
        assert!(issuer_matches("https://api.example.com/v1/P123/", "P123"));
        assert!(issuer_matches(
            "https://api.example.com/P123/session",
            "P123"
        ));
    }

    #[test]
    fn other_issuers_are_refused() {
        assert!(!issuer_matches("P1234", "P123"));
        assert!(!issuer_matches("https://P123/", "P123"));
        assert!(!issuer_matches("https://api.example.com/P123/a/b", "P123"));
        assert!(!issuer_matches("ftp://x/P123", "P123"));
        assert!(!issuer_matches("", "P123"));
    }
}
