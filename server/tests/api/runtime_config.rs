//! The runtime configuration handed to the app inside `index.html`.

use mg_server::config::{Config, LOCAL_EMULATOR_PROJECT_ID};
use serde_json::{json, Value};

use crate::emulator::{emulator_and, emulator_on};
use crate::helpers::TestApp;

async fn the_runtime_config_is_injected_into_index_html_and_escaped(app: TestApp) {
    for path in ["/", "/index.html", "/home"] {
        let html = app.get_text(path).await;
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
on_sqlite!(
    the_runtime_config_is_injected_into_index_html_and_escaped,
    with emulator_and(|config| {
        config.sanctified = false;
        config.deployment_id = Some("</script><script>alert(1)</script>".into());
        config.deployment_flags = Some(r#"{"ethereal":true}"#.into());
        config.deployment_type = Some("preview".into());
    })
);

async fn an_external_identity_provider_is_handed_to_the_app(app: TestApp) {
    let html = app.get_text("/").await;
    assert!(html.contains(&format!(r#""identityBaseUrl":"{}""#, app.identity.base_url)));
    assert!(html.contains(r#""identityProjectId":"P2testproject""#));
    assert!(html.contains(r#""sanctified":true"#));
}
on_sqlite!(an_external_identity_provider_is_handed_to_the_app);

async fn an_emulator_run_on_purpose_tells_the_app_to_show_its_marker(app: TestApp) {
    let html = app.get_text("/").await;
    assert!(html.contains(r#""identityEmulator":true"#), "{html}");
}
on_sqlite!(
    an_emulator_run_on_purpose_tells_the_app_to_show_its_marker,
    with emulator_and(|config| config.identity_emulator_public = true)
);

async fn a_loopback_emulator_shows_no_marker(app: TestApp) {
    let html = app.get_text("/").await;
    assert!(!html.contains("identityEmulator"), "{html}");
}
on_sqlite!(a_loopback_emulator_shows_no_marker, with emulator_on);

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

/// Runs the server binary with `env` on top of `app`'s settings (less `remove`), which must refuse to
/// start: exit status 1 and one clear line on stderr, without `RUST_BACKTRACE`'s stack trace. That
/// line, and the whole of stderr.
fn refused_start(app: &TestApp, env: &[(&str, &str)], remove: &[&str]) -> (String, String) {
    let (code, stderr) = start_expecting_exit(app, env, remove);
    assert_eq!(code, 1, "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one clear line: {stderr}");
    assert!(!stderr.to_lowercase().contains("backtrace"), "{stderr}");
    (lines[0].to_owned(), stderr)
}

/// Runs the server binary with `env` on top of `app`'s settings until it exits (at most 20 s):
/// its exit status and what it wrote to stderr.
fn start_expecting_exit(app: &TestApp, env: &[(&str, &str)], remove: &[&str]) -> (i32, String) {
    let mut command = crate::helpers::server_command(app, crate::helpers::free_port());
    command
        .env("RUST_LOG", "error")
        .env("RUST_BACKTRACE", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    for name in remove {
        command.env_remove(name);
    }
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.spawn().expect("start mg-server");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            panic!("mg-server was still running after 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr)
        .expect("read stderr");
    (status.code().unwrap_or(-1), stderr)
}

async fn a_start_with_the_database_down_ends_with_one_clear_line(app: TestApp) {
    // Before: `Error: ...` and, with RUST_BACKTRACE set, a stack trace.
    let port = crate::helpers::free_port();
    let url = format!("postgres://mg:s3cret@127.0.0.1:{port}/mg");
    let (line, stderr) = refused_start(&app, &[("DATABASE_URL", &url)], &[]);
    assert!(
        line.starts_with("mg-server: cannot open the postgres database"),
        "{line}"
    );
    assert!(line.contains("DATABASE_URL"), "{line}");
    assert!(
        !stderr.contains("s3cret"),
        "no password in the message: {stderr}"
    );
}
on_sqlite!(a_start_with_the_database_down_ends_with_one_clear_line);

async fn the_emulator_does_not_start_behind_a_trusted_proxy_unless_asked_for(app: TestApp) {
    // Before: with TRUSTED_PROXIES set and no identity provider, the emulator started behind
    // the proxy (a warning only), and anyone outside could sign in as anyone.
    let (line, _) = refused_start(
        &app,
        &[("TRUSTED_PROXIES", "127.0.0.1/32")],
        &["IDENTITY_BASE_URL", "IDENTITY_PROJECT_ID"],
    );
    assert!(line.starts_with("mg-server: refusing to start"), "{line}");
    assert!(line.contains("IDENTITY_EMULATOR=on"), "{line}");
}
on_sqlite!(the_emulator_does_not_start_behind_a_trusted_proxy_unless_asked_for);
