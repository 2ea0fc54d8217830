//! A session's label: the browser and system a User-Agent names, as a short phrase people recognise
//! ("Firefox on Linux", "Safari on iPhone"). Built only from the fixed words below, so the label is
//! short, never holds anything else a client sent, and the header itself is never stored.

/// Browsers, the first match wins: the ones that also name Chrome or Safari come before them.
const BROWSERS: &[(&str, &str)] = &[
    ("Edg/", "Edge"),
    ("EdgA/", "Edge"),
    ("EdgiOS/", "Edge"),
    ("OPR/", "Opera"),
    ("Vivaldi/", "Vivaldi"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("FxiOS/", "Firefox"),
    ("Firefox/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("HeadlessChrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
    ("curl/", "curl"),
];

/// Systems, the first match wins: phones and tablets before the desktop systems they resemble.
const SYSTEMS: &[(&str, &str)] = &[
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
];

/// The label of a session whose client sent `user_agent` (or none).
pub fn device_label(user_agent: Option<&str>) -> String {
    let agent = user_agent.unwrap_or("");
    let pick = |table: &[(&'static str, &'static str)]| {
        table
            .iter()
            .find(|(marker, _)| agent.contains(marker))
            .map(|(_, name)| *name)
    };
    match (pick(BROWSERS), pick(SYSTEMS)) {
        (Some(browser), Some(system)) => format!("{browser} on {system}"),
        (Some(browser), None) => browser.to_owned(),
        (None, Some(system)) => format!("A browser on {system}"),
        (None, None) => "Unknown browser".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::device_label;

    #[test]
    fn common_browsers_and_systems_are_named() {
        let cases = [
            (
                "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
                "Firefox on Linux",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
                 Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
                "Edge on Windows",
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like \
                 Gecko) Version/17.5 Safari/605.1.15",
                "Safari on macOS",
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 \
                 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1",
                "Chrome on iPhone",
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) \
                 Chrome/126.0.0.0 Mobile Safari/537.36",
                "Chrome on Android",
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) \
                 HeadlessChrome/126.0.0.0 Safari/537.36",
                "Chrome on Linux",
            ),
            ("curl/8.5.0", "curl"),
        ];
        for (agent, label) in cases {
            assert_eq!(device_label(Some(agent)), label, "{agent}");
        }
    }

    #[test]
    fn nothing_the_client_sent_reaches_the_label() {
        assert_eq!(device_label(None), "Unknown browser");
        assert_eq!(device_label(Some("")), "Unknown browser");
        let hostile = format!("<script>{}</script> Linux", "x".repeat(10_000));
        assert_eq!(device_label(Some(&hostile)), "A browser on Linux");
    }
}
