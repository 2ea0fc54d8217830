//! The wasm facade exercised through the JavaScript boundary in a real browser.
#![cfg(all(target_arch = "wasm32", feature = "machines"))]

use mg_core::bindings::ThemeMachine;
use mg_core::theme::Theme;
use tsify::Ts;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn theme_machine_starts_from_storage_and_toggles() {
    let mut machine = ThemeMachine::new(Some("void".into()));
    assert_eq!(name(machine.theme()), "void");
    assert_eq!(name(machine.toggle()), "cosmic");
    assert_eq!(name(machine.toggle()), "void");
    assert_eq!(name(machine.sync(Some("neon".into()))), "cosmic");
}

/// The string JavaScript receives for a theme.
fn name(theme: Ts<Theme>) -> String {
    theme
        .js_value()
        .as_string()
        .expect("a theme crosses as a string")
}

#[wasm_bindgen_test]
fn theme_machine_reads_unknown_values_as_cosmic() {
    let machine = ThemeMachine::new(Some("neon".into()));
    assert_eq!(name(machine.theme()), "cosmic");
    assert_eq!(name(ThemeMachine::new(None).theme()), "cosmic");
    assert_eq!(ThemeMachine::storage_key(), "theme");
}

#[wasm_bindgen_test]
fn theme_machine_round_trips_through_local_storage() {
    let storage = web_sys_storage();
    storage.set_item("theme", "void").expect("write storage");
    let stored = storage.get_item("theme").expect("read storage");
    let mut machine = ThemeMachine::new(stored);
    let next = name(machine.toggle());
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
    use tsify::Ts;
    use wasm_bindgen::JsValue;
    use wasm_bindgen_test::*;

    /// What JavaScript receives from a binding.
    trait AsJs {
        fn js(&self) -> JsValue;
    }

    impl AsJs for JsValue {
        fn js(&self) -> JsValue {
            self.clone()
        }
    }

    impl<T: tsify::Tsify> AsJs for Ts<T> {
        fn js(&self) -> JsValue {
            self.js_value()
        }
    }

    impl<T: tsify::Tsify> AsJs for Option<Ts<T>> {
        fn js(&self) -> JsValue {
            self.as_ref().map_or(JsValue::UNDEFINED, Ts::js_value)
        }
    }

    fn get(value: &impl AsJs, key: &str) -> JsValue {
        js_sys::Reflect::get(&value.js(), &JsValue::from_str(key)).expect("readable property")
    }

    fn text(value: &impl AsJs, key: &str) -> Option<String> {
        get(value, key).as_string()
    }

    /// A JavaScript object from JSON, passed where the binding takes a typed value.
    fn parse<T: tsify::Tsify>(json: &str) -> Ts<T> {
        Ts::new_unchecked(js_sys::JSON::parse(json).expect("valid JSON"))
    }

    /// A callback page opened with a code and the state this browser stored, at 0 ms; with what
    /// the start asked for.
    fn started(on_localhost: bool, code: &str) -> (AuthCallbackMachine, JsValue) {
        let mut callback = AuthCallbackMachine::new(on_localhost);
        let state = Some("s".to_owned());
        let effect = callback.start(Some(code.into()), None, state.clone(), state, 0.0);
        (callback, effect.js())
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
        assert_eq!(
            Deployment::new(Ts::new_unchecked(JsValue::UNDEFINED), 0.0).warning(),
            None
        );
    }

    #[wasm_bindgen_test]
    fn health_plans_rounds_and_records_statuses() {
        let mut health = HealthMachine::new(false, false, true);
        let plan = health.poll(0.0);
        assert_eq!(get(&plan, "checkApi").as_bool(), Some(true));
        assert_eq!(get(&plan, "readUptime").as_bool(), Some(true));
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
        assert!(health.poll(29_999.0).is_none());

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
        assert_eq!(providers.len(), 6);
        assert_eq!(text(&providers[1], "label").as_deref(), Some("GitHub"));
        let mut login = LoginMachine::new();
        assert!(login.choose("github"));
        assert!(login.is_disabled("google"));
        assert_eq!(login.started(false, None), None);
        assert_eq!(
            text(&login.snapshot(), "error").as_deref(),
            Some("Failed to connect with GitHub. Please try again.")
        );
    }

    /// A navigate effect to the landing page, told why with `error`.
    fn assert_landing(effect: &impl AsJs, error: &str) {
        let to = get(effect, "to");
        assert_eq!(text(&to, "page").as_deref(), Some("landing"));
        assert_eq!(text(&to, "error").as_deref(), Some(error));
    }

    #[wasm_bindgen_test]
    fn auth_callback_walks_to_home_with_js_objects() {
        let (mut callback, effect) = started(false, "c0de");
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
        let to = get(&callback.profile_updated(), "to");
        assert_eq!(text(&to, "page").as_deref(), Some("home"));
    }

    #[wasm_bindgen_test]
    fn auth_callback_maps_errors_and_redirects_after_3_s() {
        let (mut callback, _) = started(false, "c");
        callback.exchanged(
            parse(r#"{"ok":false,"errorCode":"E1","message":"nope"}"#),
            0.0,
        );
        assert_eq!(
            text(&callback.snapshot(), "message").as_deref(),
            Some("Authentication failed: nope")
        );
        assert!(callback.tick(2_999.0).is_none());
        assert_landing(&callback.tick(3_000.0), "auth_failed");

        let (mut timeout, _) = started(true, "c");
        timeout.tick(10_000.0);
        assert_eq!(
            text(&timeout.snapshot(), "message").as_deref(),
            Some("Authentication timeout - please try again")
        );
    }

    #[wasm_bindgen_test]
    fn auth_callback_exchanges_nothing_without_the_stored_state() {
        for expected in [None, Some("another".to_owned())] {
            let mut callback = AuthCallbackMachine::new(true);
            let effect = callback.start(Some("c".into()), None, Some("s".into()), expected, 0.0);
            assert!(effect.is_none());
            assert_eq!(
                text(&callback.snapshot(), "message").as_deref(),
                Some("This sign-in link was started in another browser or has already been used. Please sign in again.")
            );
            assert_landing(&callback.tick(3_000.0), "callback_error");
        }
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

    /// A config whose flags JSON is `flags`, read through the binding (the browser's JSON.parse).
    fn flags_of(flags: &str) -> (Option<String>, JsValue) {
        let config = js_sys::Object::new();
        js_sys::Reflect::set(&config, &"flagsJson".into(), &flags.into()).expect("set");
        let deployment = Deployment::new(Ts::new_unchecked(config.into()), 0.0);
        (deployment.warning(), get(&deployment.info(), "flags"))
    }

    #[wasm_bindgen_test]
    fn the_flags_json_is_read_by_the_spec_rules_in_the_browser() {
        let warning = Some("Failed to parse VITE_DEPLOYMENT_FLAGS".to_owned());
        for bad in [
            "{oops",
            "[true]",
            "true",
            r#"{"sanctifed":true}"#,
            r#"{"ethereal":1}"#,
            r#"{"ethereal":null}"#,
        ] {
            let (warned, flags) = flags_of(bad);
            assert_eq!(warned, warning, "{bad} is reported");
            assert_eq!(get(&flags, "apotheosis").as_bool(), Some(true), "{bad}");
            assert_eq!(get(&flags, "ethereal").as_bool(), Some(false), "{bad}");
        }
        let (warned, flags) = flags_of(r#"{"sanctified":true,"sanctified":false,"ethereal":true}"#);
        assert_eq!(warned, None);
        assert_eq!(
            get(&flags, "sanctified").as_bool(),
            Some(false),
            "the last repeat counts"
        );
        assert_eq!(get(&flags, "ethereal").as_bool(), Some(true));
        assert_eq!(flags_of("  ").0, None, "blank means the defaults, silently");
    }

    #[wasm_bindgen_test]
    fn inputs_of_the_wrong_type_read_as_absent_field_by_field() {
        let deployment =
            Deployment::new(parse(r#"{"id":5,"name":"Nova","sanctified":"yes"}"#), 0.0);
        let info = deployment.info();
        assert_eq!(text(&info, "id").as_deref(), Some("local"));
        assert_eq!(text(&info, "name").as_deref(), Some("Nova"));
        assert_eq!(
            get(&get(&info, "flags"), "sanctified").as_bool(),
            Some(false)
        );

        let (mut callback, _) = started(false, "c");
        let outcome = r#"{"ok":true,"user":{"name":"Ada","picture":3,"loginIds":["github-1"]}}"#;
        callback.exchanged(parse(outcome), 0.0);
        let payload = get(&callback.user_read(None), "payload");
        let profile = get(&payload, "profile");
        assert_eq!(text(&profile, "oauthProvider").as_deref(), Some("github"));
        assert!(
            get(&get(&profile, "oauthData"), "avatar").is_null(),
            "a number is no picture"
        );

        let mut wisdom = WisdomMachine::new();
        wisdom.click();
        wisdom.answered(200, r#"{"wisdom":{"quote":"Q","orator":7}}"#, 0.0);
        assert_eq!(
            text(&wisdom.snapshot(), "orator").as_deref(),
            Some("Unknown")
        );
        assert_eq!(
            api_error_message(Some(403.0), Some(r#"{"error":42}"#.into())).as_deref(),
            Some("Server error occurred")
        );
    }

    #[wasm_bindgen_test]
    fn absent_values_in_snapshots_are_null_as_their_types_say() {
        let login = LoginMachine::new().snapshot();
        assert!(get(&login, "loading").is_null());
        assert!(get(&login, "error").is_null());
        let callback = AuthCallbackMachine::new(false).snapshot();
        assert!(get(&callback, "message").is_null());
        assert!(get(&callback, "redirectTo").is_null());
        assert_eq!(get(&callback, "showHelp").as_bool(), Some(false));
    }

    #[wasm_bindgen_test]
    fn a_deeply_nested_field_nobody_reads_is_not_walked() {
        let depth = 50_000;
        let nested = "[".repeat(depth) + &"]".repeat(depth);
        let body = format!(r#"{{"extra":{nested},"wisdom":{nested},"error":"Seed the database"}}"#);
        let mut wisdom = WisdomMachine::new();
        wisdom.click();
        wisdom.answered(503, &body, 0.0);
        assert_eq!(
            text(&wisdom.snapshot(), "error").as_deref(),
            Some("Seed the database")
        );
        let (warned, _) = flags_of(&format!(r#"{{"ethereal":{nested}}}"#));
        assert_eq!(
            warned.as_deref(),
            Some("Failed to parse VITE_DEPLOYMENT_FLAGS")
        );
    }
}
