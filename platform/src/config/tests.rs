//! The configuration read from made-up environments: defaults, every refusal, and what each
//! build can run.

use super::*;

fn config_from(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
    Config::from_lookup(environment_of(pairs))
}

#[test]
fn only_a_build_with_the_emulator_runs_without_an_identity_provider() {
    let runnable = |pairs: &[(&str, &str)], emulator_linked: bool| {
        config_from(pairs)
            .expect("valid")
            .runnable_with(emulator_linked)
    };
    let provider = [
        ("IDENTITY_BASE_URL", "https://id.example"),
        ("IDENTITY_PROJECT_ID", "P1"),
        ("PUBLIC_URL", "https://mg.example.com"),
    ];
    assert!(runnable(&provider, true).is_ok() && runnable(&provider, false).is_ok());
    assert!(runnable(&[], true).is_ok());
    assert!(runnable(&[("IDENTITY_EMULATOR", "on")], true).is_ok());

    let message = runnable(&[], false).expect_err("no provider").to_string();
    assert!(message.contains("Set IDENTITY_BASE_URL"), "{message}");
    assert!(!message.contains('\n'), "one line: {message}");
    let message = runnable(&[("IDENTITY_EMULATOR", "on")], false)
        .expect_err("emulator asked for")
        .to_string();
    assert!(message.contains("Unset IDENTITY_EMULATOR"), "{message}");
    for local in [
        None,
        Some("http://127.0.0.1:8080"),
        Some("http://localhost"),
    ] {
        let mut pairs = provider[..2].to_vec();
        pairs.extend(local.map(|url| ("PUBLIC_URL", url)));
        let message = runnable(&pairs, false)
            .expect_err("no public origin")
            .to_string();
        assert!(message.contains("Set PUBLIC_URL"), "{local:?}: {message}");
        assert!(
            runnable(&pairs, true).is_ok(),
            "development builds default it"
        );
    }
}

#[test]
fn defaults_run_on_sqlite_in_the_data_directory_at_port_3000() {
    let config = config_from(&[]).expect("defaults are valid");
    assert_eq!(config.port, 3000);
    assert_eq!(config.database_url, "sqlite://data/mg.db?mode=rwc");
    assert_eq!(config.static_dir, PathBuf::from("app/dist"));
}

#[test]
fn a_bad_port_is_a_clear_error() {
    let error = config_from(&[("PORT", "http")]).expect_err("not a port");
    assert_eq!(
        error.to_string(),
        "PORT is not valid: 'http' is not a port number (0-65535)"
    );
}

#[test]
fn an_unsupported_database_url_is_refused() {
    let error = config_from(&[("DATABASE_URL", "mysql://x")]).expect_err("unsupported");
    assert!(error.to_string().starts_with("DATABASE_URL is not valid"));
}

#[test]
fn allowed_origins_are_a_trimmed_comma_separated_list() {
    let config = config_from(&[(
        "ALLOWED_ORIGINS",
        " https://a.example/, http://localhost:5173 ",
    )])
    .expect("valid");
    assert_eq!(
        config.allowed_origins,
        vec![
            "https://a.example".to_owned(),
            "http://localhost:5173".to_owned()
        ]
    );
}

#[test]
fn an_identity_base_url_must_be_http() {
    let error = config_from(&[("IDENTITY_BASE_URL", "api.descope.com")]).expect_err("no scheme");
    assert!(error
        .to_string()
        .starts_with("IDENTITY_BASE_URL is not valid"));
}

#[test]
fn behind_a_trusted_proxy_the_emulator_needs_to_be_asked_for() {
    // Before: HOST=127.0.0.1 behind nginx with TRUSTED_PROXIES set started the emulator with
    // a warning, and anyone outside signed in as anyone by typing an e-mail address.
    let error = config_from(&[("TRUSTED_PROXIES", "127.0.0.1")]).expect_err("refused");
    let message = error.to_string();
    assert!(message.starts_with("refusing to start"), "{message}");
    assert!(message.contains("IDENTITY_BASE_URL"), "{message}");
    assert!(message.contains("IDENTITY_EMULATOR=on"), "{message}");
    let on_purpose = config_from(&[
        ("TRUSTED_PROXIES", "127.0.0.1"),
        ("IDENTITY_EMULATOR", "on"),
    ])
    .expect("asked for");
    assert!(on_purpose.shows_emulator_marker());
    let provider = config_from(&[
        ("TRUSTED_PROXIES", "127.0.0.1"),
        ("IDENTITY_BASE_URL", "https://api.descope.com"),
        ("IDENTITY_PROJECT_ID", "P2abc"),
    ])
    .expect("a real provider behind the proxy");
    assert!(!provider.identity_emulator_enabled());
}

#[test]
fn without_an_identity_provider_the_emulator_is_on_with_the_local_project() {
    let config = config_from(&[]).expect("valid");
    assert!(config.identity_emulator_enabled());
    assert_eq!(
        config.effective_identity_project_id(),
        Some(LOCAL_EMULATOR_PROJECT_ID)
    );
    assert!(config.sanctified);
    let external = config_from(&[("IDENTITY_BASE_URL", "https://api.descope.com")]).expect("valid");
    assert!(!external.identity_emulator_enabled());
    assert_eq!(external.effective_identity_project_id(), None);
}

#[test]
fn sanctified_and_deployment_flags_are_checked() {
    let open = config_from(&[("SANCTIFIED", "false")]).expect("valid");
    assert!(!open.sanctified);
    assert!(config_from(&[("SANCTIFIED", "maybe")]).is_err());
    let error = config_from(&[("DEPLOYMENT_FLAGS", "[1]")]).expect_err("not an object");
    assert!(error
        .to_string()
        .starts_with("DEPLOYMENT_FLAGS is not valid"));
    for unreadable in [r#"{"etheral":true}"#, r#"{"ethereal":"yes"}"#] {
        config_from(&[("DEPLOYMENT_FLAGS", unreadable)]).expect_err(unreadable);
    }
    let flags = config_from(&[("DEPLOYMENT_FLAGS", r#"{"ethereal":true}"#)]).expect("valid");
    assert_eq!(
        flags.deployment_flags.as_deref(),
        Some(r#"{"ethereal":true}"#)
    );
}

#[test]
fn allowed_origins_refuse_null_and_anything_that_is_not_an_origin() {
    for bad in [
        "null",
        "NULL",
        "*",
        "app.example.com",
        "https://app.example.com/path",
        "https://app.example.com?x=1",
        "https://app.example.com#x",
        "https://user@app.example.com",
        "ftp://app.example.com",
        "file:///etc",
        "javascript:alert(1)",
    ] {
        let error = config_from(&[("ALLOWED_ORIGINS", &format!("https://ok.example, {bad}"))])
            .expect_err(bad);
        let message = error.to_string();
        assert!(
            message.starts_with("ALLOWED_ORIGINS is not valid: '"),
            "{message}"
        );
        assert!(message.contains(bad), "{message}");
    }
    let config = config_from(&[(
        "ALLOWED_ORIGINS",
        "HTTPS://App.Example.com:443, http://[::1]:5173",
    )])
    .expect("origins");
    assert_eq!(
        config.allowed_origins,
        vec![
            "https://app.example.com".to_owned(),
            "http://[::1]:5173".to_owned()
        ]
    );
}

#[test]
fn the_emulator_does_not_start_on_a_public_address_unless_asked() {
    for host in ["0.0.0.0", "192.0.2.10", "::"] {
        let error = config_from(&[("HOST", host)]).expect_err(host);
        let message = error.to_string();
        assert!(message.starts_with("refusing to start"), "{message}");
        assert!(message.contains("IDENTITY_BASE_URL"), "{message}");
        assert!(message.contains("IDENTITY_EMULATOR=on"), "{message}");
    }
    for host in ["127.0.0.1", "127.0.0.2", "::1"] {
        assert!(config_from(&[("HOST", host)]).is_ok(), "{host}");
    }
    let asked =
        config_from(&[("HOST", "0.0.0.0"), ("IDENTITY_EMULATOR", "on")]).expect("on purpose");
    assert!(asked.identity_emulator_public && asked.identity_emulator_enabled());
    let external = config_from(&[
        ("HOST", "0.0.0.0"),
        ("IDENTITY_BASE_URL", "https://api.descope.com"),
        ("IDENTITY_PROJECT_ID", "P2x"),
    ]);
    assert!(external.is_ok());
    assert!(config_from(&[("IDENTITY_EMULATOR", "yes please")]).is_err());
}

#[test]
fn the_public_url_is_an_origin_defaulting_to_localhost_on_the_port() {
    assert_eq!(
        config_from(&[]).expect("defaults").public_url,
        "http://localhost:3000"
    );
    assert_eq!(
        config_from(&[("PORT", "8080")]).expect("valid").public_url,
        "http://localhost:8080"
    );
    for (raw, origin) in [
        ("https://mg.example.com/", "https://mg.example.com"),
        (" HTTPS://MG.example.com:443 ", "https://mg.example.com"),
        ("http://127.0.0.1:3000", "http://127.0.0.1:3000"),
    ] {
        let config = config_from(&[("PUBLIC_URL", raw)]).expect(raw);
        assert_eq!(config.public_url, origin, "{raw}");
    }
    for bad in [
        "mg.example.com",
        "ftp://mg.example.com",
        "https://mg.example.com/docs",
        "https://mg.example.com//",
        "https://mg.example.com?x=1",
        "javascript:alert(1)",
    ] {
        let error = config_from(&[("PUBLIC_URL", bad)]).expect_err(bad);
        assert!(
            error.to_string().starts_with("PUBLIC_URL is not valid: '"),
            "{error}"
        );
    }
}

#[test]
fn the_data_directory_moves_the_default_database() {
    let config = config_from(&[("DATA_DIR", "/var/lib/mg")]).expect("valid");
    assert_eq!(config.database_url, "sqlite:///var/lib/mg/mg.db?mode=rwc");
}
