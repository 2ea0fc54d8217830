//! Which prerendered variant the server's configuration chooses, and the shell where none fits.

use super::*;
use crate::helpers::{header, sha256_base64};

/// Every page is the prerendered variant `expected` (`None`: the shell): most tests here are this
/// under one configuration each.
async fn expect_variant(app: TestApp, expected: Option<&str>) {
    for path in PAGES {
        let (status, variant) = variant_of(&app, path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(variant.as_deref(), expected, "{path}");
    }
}

on_sqlite!(
    a_sanctified_server_with_an_identity_project_serves_the_sign_in_variant,
    |app| expect_variant(app, Some("signin-apotheosis-110")),
    with_build(json!({}), |_| {})
);

on_sqlite!(
    an_open_server_serves_the_open_variant,
    |app| expect_variant(app, Some("open-apotheosis-100")),
    with_build(json!({}), |config| config.sanctified = false)
);

on_sqlite!(
    a_public_emulator_serves_the_variant_with_its_marker,
    |app| expect_variant(app, Some("emulator-apotheosis-110")),
    with_build(
        json!({}),
        emulator_and(|config| config.identity_emulator_public = true)
    )
);

on_sqlite!(
    a_loopback_emulator_serves_the_sign_in_variant,
    |app| expect_variant(app, Some("signin-apotheosis-110")),
    with_build(json!({}), emulator_on)
);

on_sqlite!(
    an_ethereal_type_in_any_case_serves_the_ethereal_variant,
    |app| expect_variant(app, Some("signin-ethereal-011")),
    with_build(json!({}), |config| config.deployment_type =
        Some("ETHEREAL".into()))
);

on_sqlite!(
    the_ethereal_flag_makes_any_type_ethereal,
    |app| expect_variant(app, Some("signin-ethereal-011")),
    with_build(json!({}), |config| {
        config.deployment_type = Some("telekinesis".into());
        config.deployment_flags = Some(r#"{"ethereal": true, "apotheosis": true}"#.into());
    })
);

on_sqlite!(
    the_sanctified_switch_overrides_the_sanctified_flag,
    |app| expect_variant(app, Some("open-ethereal-001")),
    with_build(json!({}), |config| {
        config.sanctified = false;
        config.deployment_flags = Some(r#"{"sanctified": true, "ethereal": true}"#.into());
    })
);

on_sqlite!(
    type_and_flags_of_the_server_choose_the_variant,
    |app| expect_variant(app, Some("signin-metagenesis-010")),
    with_build(json!({}), |config| {
        config.deployment_type = Some("Metagenesis".into());
        config.deployment_flags = Some(r#"{"apotheosis": false}"#.into());
    })
);

on_sqlite!(
    the_builds_values_count_where_the_server_sets_none,
    |app| expect_variant(app, Some("signin-telekinesis-110")),
    with_build(
        json!({"deploymentType": "telekinesis", "deploymentFlags": "{\"sanctified\": false}", "sanctified": false}),
        |_| {}
    )
);

on_sqlite!(
    unreadable_build_flags_are_the_defaults_and_the_servers_values_win,
    |app| expect_variant(app, Some("signin-ethereal-011")),
    with_build(
        json!({"deploymentType": "metagenesis", "deploymentFlags": "{\"apotheosis\": fals"}),
        |config| config.deployment_type = Some("ethereal".into())
    )
);

async fn shell_everywhere(app: TestApp) {
    // The manifest is read (its redirects work); only no page fits.
    assert_eq!(app.get_with("/mg", &[]).await.status(), 308);
    assert_eq!(variant_of(&app, "/nope").await, (404, None));
    // Nor a frame: the sign-in route gets the shell.
    assert_eq!(variant_of(&app, FRAME).await, (200, None));
    expect_variant(app, None).await;
}
on_sqlite!(
    sanctified_without_an_identity_project_gets_the_shell,
    shell_everywhere,
    with_build(json!({}), |config| config.identity_project_id = None)
);
on_sqlite!(
    a_variant_the_build_did_not_render_gets_the_shell,
    shell_everywhere,
    with_build(json!({}), |config| {
        // signin-telekinesis-110 is rendered, signin-telekinesis-010 is not.
        config.deployment_type = Some("telekinesis".into());
        config.deployment_flags = Some(r#"{"apotheosis": false}"#.into());
    })
);

async fn unreadable_manifest(app: TestApp) {
    assert_eq!(
        variant_of(&app, "/").await,
        (200, Some("signin-apotheosis-110".into()))
    );
    // A build that broke its manifest: every page is the shell again, without a restart.
    std::fs::write(
        dist(&app).join("pages.json"),
        "{\"version\": 1, \"pages\": [",
    )
    .expect("write");
    expect_variant(app, None).await;
}
on_sqlite!(
    an_unreadable_manifest_gets_the_shell_everywhere,
    unreadable_manifest,
    with_build(json!({}), |_| {})
);

async fn placeholders_are_filled(app: TestApp) {
    let html = app.get_text("/mg/overview").await;
    assert!(
        html.contains("of deployment &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; "),
        "{html}"
    );
    assert!(!html.contains("<script>alert"), "{html}");
    assert!(!html.contains("__MG_"), "{html}");
    assert!(
        html.contains(r#"<link rel="canonical" href="https://mg.example.com/mg/overview">"#),
        "{html}"
    );
    // The runtime configuration is injected into prerendered pages as into the shell.
    assert!(
        html.contains(r#"<script type="application/json" id="mg-runtime-config">{"#),
        "{html}"
    );
}
on_sqlite!(
    placeholders_are_filled_and_the_deployment_id_is_escaped,
    placeholders_are_filled,
    with_build(json!({"deploymentId": "from-the-build"}), |config| {
        config.deployment_id = Some("<script>alert(\"x\")</script>".into());
        config.public_url = "https://mg.example.com".into();
    })
);

async fn build_deployment_id(app: TestApp) {
    let html = app.get_text("/").await;
    assert!(html.contains("of deployment from-the-build "), "{html}");
}
on_sqlite!(
    the_builds_deployment_id_fills_in_when_the_server_has_none,
    build_deployment_id,
    with_build(json!({"deploymentId": " from-the-build "}), |_| {})
);

async fn csp_of_the_page(app: TestApp) {
    let response = app.get("/mg/cli").await;
    let csp = header(&response, "content-security-policy").to_owned();
    let script = "window.variant='signin-apotheosis-110'";
    assert!(csp.contains(&sha256_base64(script)), "{csp}");
    assert!(csp.contains(&sha256_base64(THEME_SCRIPT)), "{csp}");
    let scripts = csp
        .split(';')
        .find(|d| d.trim().starts_with("script-src"))
        .expect("script-src");
    assert!(!scripts.contains("unsafe-inline"), "{csp}");
}
on_sqlite!(
    a_prerendered_page_carries_the_hashes_of_its_own_inline_scripts,
    csp_of_the_page,
    with_build(json!({}), |_| {})
);
