//! The reader against serde_json, the host's reader of the same texts, on the largest input:
//! the status page's answer.
use mg_domain::status::PageBody;
use wasm_bindgen_test::wasm_bindgen_test;

use super::super::convert::read_json_text;

fn read_json(text: &str) -> Option<PageBody> {
    read_json_text(&js_sys::JsString::from(text))
}

/// Every kind of member an answer has: renamed fields (`24h`), nulls, a field left out, fields
/// the page does not read (`state`, `latency_max_ms`), members no type knows, nested structs
/// and lists of them.
const ANSWER: &str = r#"{
  "summary": {
    "state": "degraded", "updated_at": "2026-11-27T18:00:00.000Z", "extra": {"deep": [1, 2]},
    "components": [{
      "id": "db", "name": "Database", "state": "down",
      "uptime": {"24h": 99.5, "7d": null, "90d": 100.0},
      "latency_24h": {"p50_ms": 2.5, "p95_ms": null},
      "last_checked_at": null, "viewpoints": [{"instance_id": "a"}],
      "status": "major_outage", "status_source": "declared"
    }],
    "indicator": "critical", "description": "Major System Outage",
    "not_configured": ["queue"], "open_operator_incidents": 1,
    "open_incidents": [{
      "id": "i1", "component": "db", "component_name": "Database",
      "started_at": "2026-11-27T17:00:00.000Z", "ended_at": null, "first_error": "refused"
    }],
    "recent_incidents": []
  },
  "history": [{
    "component": "db",
    "daily": {"range": "90d", "points": [
      {"start": "2026-11-26T00:00:00.000Z", "checks": 2880, "failures": 3, "uptime": 99.9,
       "latency_p50_ms": 1.25, "latency_p95_ms": 7.5, "latency_max_ms": 30.0, "incidents": 1,
       "maintenance": {"failures": 3, "windows": ["Upgrade"]}},
      {"start": "2026-11-27T00:00:00.000Z", "checks": 0, "uptime": null}
    ]},
    "recent": {"points": [{"start": "2026-11-27T17:45:00.000Z", "checks": 30, "failures": 0}]}
  }],
  "since": null
}"#;

#[wasm_bindgen_test]
fn a_status_answer_reads_as_serde_json_reads_it() {
    let read = read_json(ANSWER).expect("the answer reads");
    let expected: PageBody = serde_json::from_str(ANSWER).expect("serde_json reads it");
    assert_eq!(read, expected);
    let point = &read.history[0].daily.points[0];
    assert_eq!(
        (point.checks, point.failures, point.uptime),
        (2880, 3, Some(99.9))
    );
    assert_eq!(point.latency_max_ms, None, "a field the page does not read");
    assert_eq!(read.summary.components[0].uptime.day, Some(99.5));
    assert_eq!(
        (
            read.summary.open_operator_incidents,
            read.summary.description.as_str()
        ),
        (1, "Major System Outage"),
        "what the page states reads too (a count as a whole number)"
    );
}

#[wasm_bindgen_test]
fn a_member_of_the_wrong_type_makes_the_answer_unreadable() {
    for text in [
        r#"{"history": [{"component": "db", "daily": {"points": [{"checks": "3"}]}}]}"#,
        r#"{"summary": "operational"}"#,
        r#"{"summary": {"components": [["db", "Database"]]}}"#,
        r#"{"history": [{"component": 7}]}"#,
    ] {
        assert_eq!(read_json(text), None, "{text}");
    }
    assert_eq!(read_json("{}"), Some(PageBody::default()));
}
