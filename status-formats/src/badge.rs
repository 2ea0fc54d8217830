//! Shields-style SVG badges: the component's name on the left, its state and 90-day uptime on the right.

use mg_domain::{
    component_status::ComponentStatus, figures::format_uptime, status::ComponentSummary,
};

use mg_domain::html::escape;

/// Approximate width in pixels of `text` in 11 px Verdana (what shields.io badges use).
fn text_width(text: &str) -> u32 {
    text.chars()
        .map(|c| match c {
            'i' | 'l' | 'j' | '.' | ',' | ':' | '\'' | '|' | ' ' => 4,
            'f' | 't' | 'r' | 'I' | '(' | ')' => 5,
            'm' | 'w' | 'M' | 'W' | '%' => 10,
            c if c.is_ascii_uppercase() => 8,
            _ => 7,
        })
        .sum()
}

fn color(status: Option<ComponentStatus>) -> &'static str {
    match status {
        Some(ComponentStatus::Operational) => "#2e7d32",
        Some(ComponentStatus::DegradedPerformance | ComponentStatus::PartialOutage) => "#b26a00",
        Some(ComponentStatus::MajorOutage) => "#c62828",
        Some(ComponentStatus::UnderMaintenance) => "#1565c0",
        None => "#6b6b6b",
    }
}

/// The badge's word for what the page states of the component (the checks and the operators
/// combined, `ComponentSummary::status`).
fn status_word(status: Option<ComponentStatus>) -> &'static str {
    match status {
        Some(ComponentStatus::Operational) => "up",
        Some(ComponentStatus::DegradedPerformance) => "degraded",
        Some(ComponentStatus::PartialOutage) => "partial outage",
        Some(ComponentStatus::MajorOutage) => "down",
        Some(ComponentStatus::UnderMaintenance) => "maintenance",
        None => "unknown",
    }
}

/// The badge of one component.
pub fn render(component: &ComponentSummary) -> String {
    let label = component.name.as_str();
    let uptime = format_uptime(component.uptime.quarter.or(component.uptime.day))
        .map(|figure| format!(" {figure}"))
        .unwrap_or_default();
    let value = format!("{}{uptime}", status_word(component.status));
    let (lw, vw) = (text_width(label) + 12, text_width(&value) + 12);
    let width = lw + vw;
    let (label, value) = (escape(label), escape(&value));
    let fill = color(component.status);
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" aria-label="{label}: {value}"><title>{label}: {value}</title><linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient><clipPath id="r"><rect width="{width}" height="20" rx="3" fill="#fff"/></clipPath><g clip-path="url(#r)"><rect width="{lw}" height="20" fill="#555"/><rect x="{lw}" width="{vw}" height="20" fill="{fill}"/><rect width="{width}" height="20" fill="url(#s)"/></g><g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11"><text x="{lx}" y="15" fill="#010101" fill-opacity=".3">{label}</text><text x="{lx}" y="14">{label}</text><text x="{vx}" y="15" fill="#010101" fill-opacity=".3">{value}</text><text x="{vx}" y="14">{value}</text></g></svg>"##,
        lx = lw / 2,
        vx = lw + vw / 2,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_uptimes_are_short() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
        let mut component = ComponentSummary {
            name: "API".into(),
            status: Some(ComponentStatus::Operational),
            ..ComponentSummary::default()
        };
        for (uptime, shown) in [
            (100.0, "up 100%"),
            (99.999, "up 99.99%"),
            (99.5, "up 99.5%"),
        ] {
            component.uptime.quarter = Some(uptime);
            assert!(
                render(&component).contains(&format!("<title>API: {shown}</title>")),
                "{uptime}"
            );
        }
    }
}
