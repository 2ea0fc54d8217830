//! The reader and writer checked against serde_json, the behaviour they replace.

use super::*;
use proptest::prelude::*;

fn reference(text: &str) -> Option<serde_json::Value> {
    serde_json::from_str(text).ok()
}

/// The same value with numbers erased, so it compares with [`Value`].
fn erase(value: &serde_json::Value) -> Value {
    match value {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(_) => Value::Number,
        serde_json::Value::String(s) => Value::String(s.clone()),
        serde_json::Value::Array(items) => Value::Array(items.iter().map(erase).collect()),
        serde_json::Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), erase(v))).collect())
        }
    }
}

/// [`Value`] with repeated keys resolved (last wins) and members sorted, as serde_json's map holds them.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        Value::Object(members) => {
            let mut out: Vec<(String, Value)> = Vec::new();
            for (key, item) in members {
                out.retain(|(k, _)| k != key);
                out.push((key.clone(), canonical(item)));
            }
            out.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(out)
        }
        other => other.clone(),
    }
}

fn agrees(text: &str) {
    let ours = parse(text);
    let theirs = reference(text);
    assert_eq!(
        ours.as_ref().map(canonical),
        theirs.as_ref().map(erase),
        "input {text:?}"
    );
}

#[test]
fn accepts_and_rejects_what_serde_json_does() {
    let cases = [
        "",
        " ",
        "null",
        "true",
        "false",
        "nul",
        "truex",
        " {} ",
        "[]",
        "[ ]",
        "{ }",
        "[1,]",
        "[,1]",
        "{,}",
        r#"{"a":1,}"#,
        r#"{"a" 1}"#,
        r#"{a:1}"#,
        r#"{"a":1 "b":2}"#,
        "0",
        "-0",
        "01",
        "-",
        "1.",
        ".5",
        "1e",
        "1e+",
        "1E-2",
        "+1",
        "1.5e300",
        "-12.5E+3",
        "0.0e0",
        "1e308",
        "1.7976931348623157e308",
        "1.8e308",
        "-1.8e308",
        "1e309",
        "1e400",
        "0e99999999999999999999",
        "1e-99999999999999999999",
        "0.000000000001e320",
        "100000000000000000000000000000000000000000000000000e280",
        "1e2147483647",
        "1e2147483648",
        "0e2147483648",
        "1e-2147483648",
        "1e-99999999999",
        "0.0e2147483648",
        "12.5e2147483647",
        "18446744073709551615e289",
        "18446744073709551616e289",
        "184467440737095516159.0e289",
        "1844674407370955161.67e290",
        "-18446744073709551616.0",
        r#""a\"b\\c\/d\b\f\n\r\t""#,
        r#""\u00e9\u00E9""#,
        r#""\ud83d\ude00""#,
        r#""\ud83d""#,
        r#""\ude00""#,
        r#""\ud83d\u0041""#,
        r#""\ud83dx""#,
        r#""\u12""#,
        r#""\x""#,
        "\"a\u{1}\"",
        "\"tab\there\"",
        "\"é ☃ 😀\"",
        "\"unterminated",
        r#"{"k":"v","k":2}"#,
        r#"{"wisdom":{"quote":"Q","orator":"O"}}"#,
        "[1, [2, [3, {\"a\": [null]}]]]",
        "\u{feff}{}",
        "{}\u{a0}",
        "{} x",
        "[1 2]",
        "\t\n\r {\"a\" :\ttrue } \n",
    ];
    for text in cases {
        agrees(text);
    }
}

#[test]
fn the_nesting_limit_is_serde_jsons() {
    for depth in [1, 100, 126, 127, 128, 129, 300] {
        let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        agrees(&arrays);
        let objects = format!("{}null{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
        agrees(&objects);
    }
    assert!(parse(&"[".repeat(100_000)).is_none());
}

#[test]
fn the_last_of_a_repeated_key_counts() {
    let value = parse(r#"{"a":1,"a":"x"}"#).expect("valid");
    assert_eq!(value.get("a").and_then(JsonRead::as_str), Some("x"));
}

proptest! {
    #[test]
    fn any_text_never_panics_and_agrees(text in ".{0,64}") {
        agrees(&text);
    }

    #[test]
    fn json_like_text_agrees(text in r#"[\[\]{}",:0-9eE.+\- \\/untrlfasbu"aA]{0,40}"#) {
        agrees(&text);
    }

    #[test]
    fn numbers_agree(text in r"-?(0|[1-9][0-9]{0,25})(\.[0-9]{1,25})?([eE][+-]?[0-9]{1,4})?") {
        agrees(&text);
    }

    #[test]
    fn numbers_near_the_f64_limit_agree(text in r"-?1\.79769313486231[4-6][0-9]{0,20}e308|179769313486231[4-6][0-9]{0,8}e29[0-9]|0\.0179769313486231[4-6][0-9]{0,3}e310|[1-9][0-9]{14,24}(\.[0-9]{0,22})?[eE]\+?(2[89][0-9]|30[0-9]|31[0-2])") {
        agrees(&text);
    }

    #[test]
    fn arbitrary_values_round_trip(value in arbitrary_json()) {
        let text = serde_json::to_string(&value).expect("serialise");
        agrees(&text);
        let pretty = serde_json::to_string_pretty(&value).expect("serialise");
        agrees(&pretty);
        // Every prefix of a valid text is handled without panicking, as serde_json does.
        for end in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
            agrees(&text[..end]);
        }
    }

    #[test]
    fn strings_are_written_as_serde_json_writes_them(text in "\\PC{0,20}|[\\x00-\\x7f]{0,20}") {
        let mut writer = Writer::default();
        writer.string(&text);
        prop_assert_eq!(writer.0, serde_json::to_string(&text).expect("serialise"));
    }

    #[test]
    fn numbers_are_written_as_serde_json_writes_them(n: u64) {
        let mut writer = Writer::default();
        writer.number(n);
        prop_assert_eq!(writer.0, n.to_string());
    }
}

fn arbitrary_json() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(serde_json::Value::from),
        "\\PC{0,12}|[\\x00-\\x20\"\\\\]{0,6}".prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            proptest::collection::btree_map("[a-z]{0,3}", inner, 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

mod writers {
    //! Every snapshot and effect written by hand exactly as its serde derive writes it.

    use super::*;
    use crate::auth_callback::{CallbackSnapshot, Effect, IdentityUser, Phase, ProfileUpdate};
    use crate::deployment::{DeploymentConfig, DeploymentInfo};
    use crate::health::{CheckPlan, HealthSnapshot, HealthValue};
    use crate::login::{LoginSnapshot, ProviderList, PROVIDERS};
    use crate::name_edit::{EditMode, NameEditSnapshot, Notice, NoticeKind};
    use crate::telekinesis::DemoCounters;
    use crate::wisdom::WisdomState;

    fn same<T: ToJson + serde::Serialize>(value: &T) -> Result<(), TestCaseError> {
        prop_assert_eq!(
            to_string(value),
            serde_json::to_string(value).expect("serialise")
        );
        Ok(())
    }

    fn text() -> impl Strategy<Value = String> {
        "\\PC{0,8}|[\\x00-\\x20\"\\\\ ab]{0,6}"
    }

    fn opt_text() -> impl Strategy<Value = Option<String>> {
        proptest::option::of(text())
    }

    #[test]
    fn the_provider_list_is_the_old_sorted_map_list() {
        let list: Vec<_> = PROVIDERS
            .iter()
            .map(|(id, label)| {
                [("id", *id), ("label", *label)]
                    .into_iter()
                    .collect::<std::collections::BTreeMap<_, _>>()
            })
            .collect();
        assert_eq!(
            to_string(&ProviderList),
            serde_json::to_string(&list).expect("serialise")
        );
    }

    #[test]
    fn every_health_value_and_plan() {
        let values = [
            HealthValue::Unknown,
            HealthValue::Healthy,
            HealthValue::Unhealthy,
            HealthValue::NotApplicable,
        ];
        for api in values {
            for db in values {
                for queue in values {
                    same(&HealthSnapshot { api, db, queue }).expect("same");
                }
            }
        }
        for (check_api, check_db) in [(false, false), (true, false), (false, true), (true, true)] {
            for round in [0, 1, 4_294_967_295] {
                same(&CheckPlan {
                    round,
                    check_api,
                    check_db,
                })
                .expect("same");
            }
        }
    }

    proptest! {
        #[test]
        fn deployment_info(
            id in opt_text(), name in opt_text(), kind in opt_text(), flags in opt_text(),
            sanctified: Option<bool>, repo in opt_text(), queue in opt_text(), now: u64,
            a: bool, s: bool, e: bool,
        ) {
            let flags_json = flags.or_else(|| {
                Some(format!(r#"{{"apotheosis":{a},"sanctified":{s},"ethereal":{e}}}"#))
            });
            for deployment_type in [kind, Some("ethereal".into()), Some("telekinesis".into()), Some("metagenesis".into())] {
                let config = DeploymentConfig {
                    id: id.clone(),
                    name: name.clone(),
                    deployment_type,
                    flags_json: flags_json.clone(),
                    sanctified,
                    github_repo: repo.clone(),
                    telekinesis_queue_url: queue.clone(),
                };
                same(&DeploymentInfo::build(config, now).0)?;
            }
        }

        #[test]
        fn wisdom_states(quote in text(), orator in text(), error in text(),
                         instructions in opt_text(), message in opt_text(), until: u64) {
            same(&WisdomState::Idle)?;
            same(&WisdomState::Testing)?;
            same(&WisdomState::Success { quote, orator, until })?;
            same(&WisdomState::Error { error, instructions, message, until })?;
        }

        #[test]
        fn callback_effects_and_snapshots(
            code in text(), to in text(), stored in opt_text(),
            fields in proptest::collection::vec(opt_text(), 7), ids in proptest::collection::vec(text(), 0..3),
            phase in 0usize..6, message in opt_text(), show_help: bool, redirect_to in opt_text(),
        ) {
            let user = IdentityUser {
                name: fields[0].clone(),
                display_name: fields[1].clone(),
                username: fields[2].clone(),
                given_name: fields[3].clone(),
                nickname: fields[4].clone(),
                picture: fields[5].clone(),
                avatar: fields[6].clone(),
                login_ids: ids,
            };
            let payload = ProfileUpdate::decide(stored.as_deref(), &user);
            same(&payload)?;
            same(&Effect::Exchange { code })?;
            same(&Effect::ReadUser)?;
            same(&Effect::UpdateProfile { payload })?;
            same(&Effect::Navigate { to })?;
            let phase = [Phase::Idle, Phase::Exchanging, Phase::ReadingUser, Phase::UpdatingProfile,
                         Phase::Done, Phase::Failed][phase];
            same(&CallbackSnapshot { phase, message, show_help, redirect_to })?;
        }

        #[test]
        fn name_edit_login_and_counters(
            mode in 0usize..3, name in text(), draft in text(), notice in proptest::option::of((any::<bool>(), text())),
            loading in opt_text(), error in opt_text(), numbers: [u32; 5],
        ) {
            let mode = [EditMode::View, EditMode::Editing, EditMode::Saving][mode];
            let notice = notice.map(|(ok, text)| Notice {
                kind: if ok { NoticeKind::Success } else { NoticeKind::Error },
                text,
                until: 7,
            });
            same(&NameEditSnapshot { mode, name, draft, notice })?;
            same(&LoginSnapshot { loading, error })?;
            same(&DemoCounters {
                functions_deployed: numbers[0],
                invocations_per_minute: numbers[1],
                messages_queued: numbers[2],
                avg_latency_ms: numbers[3],
                generation: numbers[4],
            })?;
        }
    }
}
