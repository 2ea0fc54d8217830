//! The wasm facade exercised through the JavaScript boundary in a real browser.
#![cfg(all(target_arch = "wasm32", feature = "machines"))]

use mg_core::bindings::ThemeMachine;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn theme_machine_starts_from_storage_and_toggles() {
    let mut machine = ThemeMachine::new(Some("void".into()));
    assert_eq!(machine.theme(), "void");
    assert_eq!(machine.toggle(), "cosmic");
    assert_eq!(machine.toggle(), "void");
}

#[wasm_bindgen_test]
fn theme_machine_reads_unknown_values_as_cosmic() {
    let machine = ThemeMachine::new(Some("neon".into()));
    assert_eq!(machine.theme(), "cosmic");
    assert_eq!(ThemeMachine::new(None).theme(), "cosmic");
    assert_eq!(ThemeMachine::storage_key(), "theme");
}

#[wasm_bindgen_test]
fn theme_machine_round_trips_through_local_storage() {
    let storage = web_sys_storage();
    storage.set_item("theme", "void").expect("write storage");
    let stored = storage.get_item("theme").expect("read storage");
    let mut machine = ThemeMachine::new(stored);
    let next = machine.toggle();
    storage.set_item("theme", &next).expect("write storage");
    assert_eq!(
        storage.get_item("theme").expect("read").as_deref(),
        Some("cosmic")
    );
}

fn web_sys_storage() -> web_sys::Storage {
    web_sys::window()
        .expect("window")
        .local_storage()
        .expect("storage access")
        .expect("storage present")
}

mod machines {
    //! Each exported machine driven through the JavaScript boundary (values cross as JS objects).

    use mg_core::bindings::{
        api_error_message, AuthCallbackMachine, Deployment, HealthMachine, LoginMachine,
        NameEditMachine, TelekinesisCounters, WisdomMachine,
    };
    use wasm_bindgen::JsValue;
    use wasm_bindgen_test::*;

    fn get(value: &JsValue, key: &str) -> JsValue {
        js_sys::Reflect::get(value, &JsValue::from_str(key)).expect("readable property")
    }

    fn text(value: &JsValue, key: &str) -> Option<String> {
        get(value, key).as_string()
    }

    fn parse(json: &str) -> JsValue {
        js_sys::JSON::parse(json).expect("valid JSON")
    }

    #[wasm_bindgen_test]
    fn deployment_reads_a_js_config_and_reports_bad_flags() {
        let config = parse(r#"{"id":"dep-7","deploymentType":"telekinesis","flagsJson":"{oops"}"#);
        let deployment = Deployment::new(config, 1_000.0);
        assert_eq!(
            deployment.warning().as_deref(),
            Some("Failed to parse VITE_DEPLOYMENT_FLAGS")
        );
        let info = deployment.info();
        assert_eq!(text(&info, "id").as_deref(), Some("dep-7"));
        assert_eq!(text(&info, "type").as_deref(), Some("telekinesis"));
        assert_eq!(text(&info, "status").as_deref(), Some("active"));
        assert_eq!(
            get(&get(&info, "flags"), "apotheosis").as_bool(),
            Some(true)
        );
        assert_eq!(
            text(&get(&info, "landing"), "title").as_deref(),
            Some("Telekinesis")
        );
        assert_eq!(Deployment::new(JsValue::UNDEFINED, 0.0).warning(), None);
    }

    #[wasm_bindgen_test]
    fn health_plans_rounds_and_records_statuses() {
        let mut health = HealthMachine::new(false, false, true);
        let plan = health.poll(0.0);
        assert_eq!(get(&plan, "checkApi").as_bool(), Some(true));
        let round = get(&plan, "round").as_f64().expect("round") as u32;
        assert_eq!(health.api_result(round, Some(200.0)), None);
        assert_eq!(
            health.db_result(round, None).as_deref(),
            Some("Database health check failed")
        );
        let snapshot = health.snapshot();
        assert_eq!(text(&snapshot, "api").as_deref(), Some("healthy"));
        assert_eq!(text(&snapshot, "db").as_deref(), Some("unhealthy"));
        assert_eq!(text(&snapshot, "queue").as_deref(), Some("healthy"));
        assert_eq!(health.next_deadline(), Some(30_000.0));
        assert!(health.poll(29_999.0).is_undefined());

        let mut ethereal = HealthMachine::new(true, false, false);
        ethereal.poll(0.0);
        assert_eq!(text(&ethereal.snapshot(), "db").as_deref(), Some("n/a"));
    }

    #[wasm_bindgen_test]
    fn wisdom_shows_a_quote_then_resets_at_5_000_ms() {
        let mut wisdom = WisdomMachine::new();
        assert!(wisdom.click());
        assert!(wisdom.disabled());
        wisdom.answered(200, r#"{"wisdom":{"quote":"Q","orator":"O"}}"#, 0.0);
        assert_eq!(
            text(&wisdom.snapshot(), "status").as_deref(),
            Some("success")
        );
        assert_eq!(text(&wisdom.snapshot(), "orator").as_deref(), Some("O"));
        assert!(!wisdom.tick(4_999.0));
        assert!(wisdom.tick(5_000.0));
        assert!(wisdom.click());
        wisdom.network_failed(0.0);
        assert_eq!(
            text(&wisdom.snapshot(), "error").as_deref(),
            Some("Failed to connect to API")
        );
        assert_eq!(wisdom.next_deadline(), Some(3_000.0));
    }

    #[wasm_bindgen_test]
    fn name_edit_validates_saves_and_clears_messages() {
        let mut edit = NameEditMachine::new("Ada");
        edit.edit();
        edit.input("   ");
        assert_eq!(edit.key("Enter", 0.0), None);
        let notice = get(&edit.snapshot(), "notice");
        assert_eq!(
            text(&notice, "text").as_deref(),
            Some("Name cannot be empty")
        );
        edit.input(" Grace ");
        assert_eq!(edit.save(10.0).as_deref(), Some("Grace"));
        edit.saved("Grace", 10.0);
        assert_eq!(text(&edit.snapshot(), "name").as_deref(), Some("Grace"));
        assert_eq!(edit.next_deadline(), Some(3_010.0));
        assert!(edit.tick(3_010.0));
        assert!(get(&edit.snapshot(), "notice").is_null());
    }

    #[wasm_bindgen_test]
    fn login_disables_others_and_names_the_provider_on_failure() {
        let providers = LoginMachine::providers();
        assert_eq!(js_sys::Array::from(&providers).length(), 6);
        let mut login = LoginMachine::new();
        assert!(login.choose("github"));
        assert!(login.is_disabled("google"));
        assert_eq!(login.started(false, None), None);
        assert_eq!(
            text(&login.snapshot(), "error").as_deref(),
            Some("Failed to connect with GitHub. Please try again.")
        );
    }

    #[wasm_bindgen_test]
    fn auth_callback_walks_to_home_with_js_objects() {
        let mut callback = AuthCallbackMachine::new(false);
        let effect = callback.start(Some("c0de".into()), None, 0.0);
        assert_eq!(text(&effect, "kind").as_deref(), Some("exchange"));
        let outcome = parse(r#"{"ok":true,"user":{"name":"Ada","loginIds":null}}"#);
        assert_eq!(
            text(&callback.exchanged(outcome, 1.0), "kind").as_deref(),
            Some("readUser")
        );
        let update = callback.user_read(None);
        let payload = get(&update, "payload");
        assert_eq!(text(&payload, "name").as_deref(), Some("Ada"));
        assert_eq!(
            text(&get(&payload, "profile"), "oauthProvider").as_deref(),
            Some("discord")
        );
        assert_eq!(
            text(&callback.profile_updated(), "to").as_deref(),
            Some("/home")
        );
    }

    #[wasm_bindgen_test]
    fn auth_callback_maps_errors_and_redirects_after_3_s() {
        let mut callback = AuthCallbackMachine::new(false);
        callback.start(Some("c".into()), None, 0.0);
        callback.exchanged(
            parse(r#"{"ok":false,"errorCode":"E1","message":"nope"}"#),
            0.0,
        );
        assert_eq!(
            text(&callback.snapshot(), "message").as_deref(),
            Some("Authentication failed: nope")
        );
        assert!(callback.tick(2_999.0).is_undefined());
        assert_eq!(
            text(&callback.tick(3_000.0), "to").as_deref(),
            Some("/?error=auth_failed")
        );

        let mut timeout = AuthCallbackMachine::new(true);
        timeout.start(Some("c".into()), None, 0.0);
        timeout.tick(10_000.0);
        assert_eq!(
            text(&timeout.snapshot(), "message").as_deref(),
            Some("Authentication timeout - please try again")
        );
    }

    #[wasm_bindgen_test]
    fn counters_are_seeded_and_refresh_every_3_s() {
        let mut a = TelekinesisCounters::new(42, 0.0);
        let b = TelekinesisCounters::new(42, 0.0);
        let first = get(&a.counters(), "invocationsPerMinute").as_f64();
        assert_eq!(first, get(&b.counters(), "invocationsPerMinute").as_f64());
        assert!(!a.tick(2_999.0));
        assert!(a.tick(3_000.0));
        assert_eq!(get(&a.counters(), "generation").as_f64(), Some(1.0));
        assert!(TelekinesisCounters::demo_label().starts_with("Demo data"));
    }

    #[wasm_bindgen_test]
    fn the_api_error_rule_crosses_the_boundary() {
        assert_eq!(api_error_message(Some(200.0), None), None);
        assert_eq!(
            api_error_message(Some(400.0), Some(r#"{"error":"Bad name"}"#.into())).as_deref(),
            Some("Bad name")
        );
        assert_eq!(
            api_error_message(Some(500.0), Some("oops".into())).as_deref(),
            Some("Server error occurred")
        );
        assert_eq!(
            api_error_message(None, None).as_deref(),
            Some("Network error - please check your connection")
        );
    }
}
