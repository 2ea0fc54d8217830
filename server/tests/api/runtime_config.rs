//! The runtime configuration handed to the app inside `index.html`.

use mg_server::config::{Config, LOCAL_EMULATOR_PROJECT_ID};
use serde_json::{json, Value};

use crate::emulator::emulator_on;
use crate::helpers::TestApp;

async fn runtime_config_is_injected(app: TestApp) {
    for path in ["/", "/index.html", "/home"] {
        let html = app.get(path).await.text().await.expect("html");
        let start = html
            .find(r#"<script type="application/json" id="mg-runtime-config">"#)
            .unwrap_or_else(|| panic!("{path}: {html}"));
        let rest = &html[start..];
        let json =
            &rest[rest.find('>').expect("tag end") + 1..rest.find("</script>").expect("end")];
        assert!(!json.contains('<'), "{json}");
        let config: Value = serde_json::from_str(json).expect("JSON");
        assert_eq!(
            config,
            json!({
                "sanctified": false,
                "identityProjectId": LOCAL_EMULATOR_PROJECT_ID,
                "identityBaseUrl": "",
                "deploymentId": "</script><script>alert(1)</script>",
                "deploymentFlags": "{\"ethereal\":true}",
                "deploymentType": "preview",
            }),
            "{path}"
        );
    }
}
on_both_backends!(
    the_runtime_config_is_injected_into_index_html_and_escaped,
    runtime_config_is_injected,
    |config: &mut Config| {
        emulator_on(config);
        config.sanctified = false;
        config.deployment_id = Some("</script><script>alert(1)</script>".into());
        config.deployment_flags = Some(r#"{"ethereal":true}"#.into());
        config.deployment_type = Some("preview".into());
    }
);

async fn external_config_is_handed_over(app: TestApp) {
    let html = app.get("/").await.text().await.expect("html");
    assert!(html.contains(&format!(r#""identityBaseUrl":"{}""#, app.identity.base_url)));
    assert!(html.contains(r#""identityProjectId":"P2testproject""#));
    assert!(html.contains(r#""sanctified":true"#));
}
on_both_backends!(
    an_external_identity_provider_is_handed_to_the_app,
    external_config_is_handed_over
);

async fn emulator_marker(app: TestApp) {
    let html = app.get("/").await.text().await.expect("html");
    assert!(html.contains(r#""identityEmulator":true"#), "{html}");
}
on_both_backends!(
    an_emulator_run_on_purpose_tells_the_app_to_show_its_marker,
    emulator_marker,
    |config: &mut Config| {
        emulator_on(config);
        config.identity_emulator_public = true;
    }
);

async fn no_marker_by_default(app: TestApp) {
    let html = app.get("/").await.text().await.expect("html");
    assert!(!html.contains("identityEmulator"), "{html}");
}
on_both_backends!(
    a_loopback_emulator_shows_no_marker,
    no_marker_by_default,
    emulator_on
);

#[tokio::test]
async fn the_server_refuses_to_start_the_emulator_on_a_public_address() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = Config::from_lookup(|_| None).expect("defaults");
    config.host = [0, 0, 0, 0].into();
    config.port = 0;
    config.data_dir = dir.path().to_path_buf();
    config.database_url = format!("sqlite://{}?mode=rwc", dir.path().join("x.db").display());
    let error = mg_server::startup::Application::build(config)
        .await
        .expect_err("refused");
    let message = error.to_string();
    assert!(message.contains("refusing to start"), "{message}");
    assert!(message.contains("IDENTITY_BASE_URL"), "{message}");
    assert!(!dir.path().join("x.db").exists(), "nothing was started");
}
