//! A component's status as the page states it, in Statuspage's words, and the one rule that
//! combines what the checks measured with what operators declared. The server applies it to every
//! answer (cards, badges, feed, Statuspage JSON, webhooks) and the status page's core reads the
//! result, so the two never disagree.
//!
//! The rule, in order:
//!
//! 1. **Measured.** The checks' state gives `operational` (every current viewpoint sees it up),
//!    `partial_outage` (viewpoints disagree) or `major_outage` (every current viewpoint sees it
//!    down); no current check gives nothing (`crate::status::State::measured_status`).
//! 2. **Maintenance.** While a maintenance window naming the component is in progress, the measured
//!    status is replaced by `under_maintenance` (the checks inside a window do not count).
//! 3. **Declared.** Each open incident naming the component may declare a status (its latest update
//!    that declares one), and operators may set one on the component by itself, without an
//!    incident. The worst of the declared and the status of steps 1-2 wins, in the order of
//!    [`ComponentStatus::severity`]: a declaration can say more than the checks see, never hide
//!    what they see (`operational` set on a component the checks see down shows `major_outage`).
//! 4. Resolving the incident (or completing the window) removes its declaration, and clearing the
//!    component's own removes that one: the measured status is shown again.

crate::vocabulary! {
    /// A component's status, as Statuspage spells it.
    #[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "ComponentCondition"))]
    pub enum ComponentStatus("component status") {
        Operational = "operational" => "Operational",
        DegradedPerformance = "degraded_performance" => "Degraded performance",
        PartialOutage = "partial_outage" => "Partial outage",
        MajorOutage = "major_outage" => "Major outage",
        UnderMaintenance = "under_maintenance" => "Under maintenance",
    }
}

impl ComponentStatus {
    /// How bad it is: operational 0, under maintenance 1 (planned, announced), degraded
    /// performance 2, partial outage 3, major outage 4. The worse of two is the higher.
    pub const fn severity(self) -> u8 {
        match self {
            ComponentStatus::Operational => 0,
            ComponentStatus::UnderMaintenance => 1,
            ComponentStatus::DegradedPerformance => 2,
            ComponentStatus::PartialOutage => 3,
            ComponentStatus::MajorOutage => 4,
        }
    }

    /// The worse of two.
    pub fn worse(a: ComponentStatus, b: ComponentStatus) -> ComponentStatus {
        if b.severity() > a.severity() {
            b
        } else {
            a
        }
    }
}

/// Why a component's status is not what the checks measure, in the words every card shows beside
/// it, from the answers' `status_source` (`declared`, `maintenance`); empty when it is the measure.
pub fn source_note(source: Option<&str>) -> &'static str {
    match source {
        Some("declared") => "Declared by the operators",
        Some("maintenance") => "A maintenance window is in progress",
        _ => "",
    }
}

/// The module's rule: the status shown for a component whose checks measure `measured` (step 1),
/// that a window in progress names or not, and whose open incidents and own setting declare
/// `declared`.
pub fn combine(
    measured: Option<ComponentStatus>,
    in_maintenance: bool,
    declared: impl IntoIterator<Item = ComponentStatus>,
) -> Option<ComponentStatus> {
    let base = if in_maintenance {
        Some(ComponentStatus::UnderMaintenance)
    } else {
        measured
    };
    declared.into_iter().fold(base, |shown, declared| {
        Some(shown.map_or(declared, |shown| ComponentStatus::worse(shown, declared)))
    })
}

/// The page's overall status from its components' (those with a status): Statuspage's indicator
/// and the words that say it. `none` "All Systems Operational"; `maintenance` "Service Under
/// Maintenance"; `minor` "Minor Service Outage" (degraded performance or a partial outage, or
/// nothing measured yet); `major` "Partial System Outage" (a component in major outage);
/// `critical` "Major System Outage" (every component in major outage).
pub fn overall(statuses: &[Option<ComponentStatus>]) -> (&'static str, &'static str) {
    let known: Vec<ComponentStatus> = statuses.iter().flatten().copied().collect();
    let worst = known
        .iter()
        .copied()
        .reduce(ComponentStatus::worse)
        .unwrap_or(ComponentStatus::DegradedPerformance);
    match worst {
        ComponentStatus::Operational => ("none", "All Systems Operational"),
        ComponentStatus::UnderMaintenance => ("maintenance", "Service Under Maintenance"),
        ComponentStatus::MajorOutage
            if known.len() == statuses.len()
                && known.iter().all(|s| *s == ComponentStatus::MajorOutage) =>
        {
            ("critical", "Major System Outage")
        }
        ComponentStatus::MajorOutage => ("major", "Partial System Outage"),
        ComponentStatus::DegradedPerformance | ComponentStatus::PartialOutage => {
            ("minor", "Minor Service Outage")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ComponentStatus::*;

    #[test]
    fn the_worse_wins_and_maintenance_replaces_the_measure() {
        assert_eq!(combine(Some(Operational), false, []), Some(Operational));
        assert_eq!(
            combine(Some(Operational), false, [MajorOutage]),
            Some(MajorOutage)
        );
        assert_eq!(
            combine(Some(MajorOutage), false, [DegradedPerformance]),
            Some(MajorOutage),
            "a milder declaration does not hide what the checks see"
        );
        assert_eq!(combine(Some(MajorOutage), true, []), Some(UnderMaintenance));
        assert_eq!(
            combine(Some(Operational), true, [PartialOutage]),
            Some(PartialOutage)
        );
        assert_eq!(combine(None, false, []), None);
        assert_eq!(
            combine(None, false, [DegradedPerformance, MajorOutage]),
            Some(MajorOutage)
        );
        assert_eq!(
            combine(Some(MajorOutage), false, [Operational]),
            Some(MajorOutage),
            "a component's own `operational` does not hide an outage the checks see"
        );
        assert_eq!(
            combine(Some(Operational), true, [DegradedPerformance]),
            Some(DegradedPerformance),
            "one set during a window shows when it is worse than the maintenance"
        );
    }

    #[test]
    fn a_status_that_is_not_the_measure_says_why() {
        assert_eq!(source_note(Some("declared")), "Declared by the operators");
        assert_eq!(
            source_note(Some("maintenance")),
            "A maintenance window is in progress"
        );
        assert_eq!(source_note(None), "");
    }

    #[test]
    fn the_overall_words_follow_the_worst_component() {
        let all = |s| [Some(s), Some(s)];
        assert_eq!(overall(&all(Operational)).1, "All Systems Operational");
        assert_eq!(overall(&all(MajorOutage)).0, "critical");
        assert_eq!(overall(&[Some(Operational), Some(MajorOutage)]).0, "major");
        assert_eq!(
            overall(&[Some(Operational), Some(UnderMaintenance)]).0,
            "maintenance"
        );
        assert_eq!(overall(&[Some(PartialOutage), None]).0, "minor");
        assert_eq!(overall(&[]).0, "minor", "nothing measured yet");
        for status in ComponentStatus::ALL {
            assert_eq!(ComponentStatus::parse(status.as_str()), Some(*status));
        }
    }
}
