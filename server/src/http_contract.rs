//! The HTTP contract in TypeScript: `app/common/http-types.ts` is rendered from the Rust types the
//! server serialises (and the request bodies it reads), so the app's types of its answers are never
//! written by hand. The types derive `ts_rs::TS` in test builds only (this crate's `cfg(test)`, and
//! the `ts-rs` feature of the crates under it, which only the test build turns on); no build of the
//! server carries ts-rs. The file is a header and then ts-rs's declarations as it writes them (each on one
//! line); app/biome.json keeps the file out of Biome's formatter, so what this test compares is
//! exactly what it wrote.
//!
//! `make http-types` writes the file (this test with `MG_WRITE_HTTP_TYPES=1`); without the variable
//! the test fails when the committed file is not what the Rust types give, naming that command.
//! A type joins the contract by deriving `TS` beside its `Serialize` (see `error::ErrorBody`) and
//! being listed in [`declarations`]; the types it refers to must be listed too (a test says which
//! are missing).

use std::{collections::BTreeSet, path::PathBuf};

use mg_domain::{component_status, notices, status, webhooks};
use mg_status::operator::bodies as operator;
use ts_rs::{Config, TS};

use crate::{
    db::{wisdom::Wisdom, Backend},
    error::ErrorBody,
    routes::{account, auth, health, wisdom},
    site::static_files::RuntimeConfig,
};

/// The file, from the repository's root.
const FILE: &str = "app/common/http-types.ts";
/// The variable that makes the test write the file instead of comparing it.
const WRITE: &str = "MG_WRITE_HTTP_TYPES";
const COMMAND: &str = "make http-types";

const HEADER: &str = "\
// The server's HTTP contract: the bodies it answers and the request bodies it reads, and the runtime
// configuration it puts into every page. Generated from the Rust types (server/src/http_contract.rs,
// ts-rs): do not edit; change the Rust type and run `make http-types`. A Rust test fails while this
// file differs from what the Rust types give. Neutral ground: app code, build code and scripts import it.
";

/// One type of the contract: its TypeScript name, declaration, and the names of the contract's
/// types it refers to.
struct Declaration {
    name: String,
    text: String,
    refers_to: Vec<String>,
}

/// The declarations of every type in the contract, in this order.
fn declarations(config: &Config) -> Vec<Declaration> {
    let mut out = Vec::new();
    macro_rules! types {
        ($($ty:ty),* $(,)?) => {
            $(out.push(Declaration {
                name: <$ty as TS>::ident(config),
                text: format!(
                    "{}export {}",
                    <$ty as TS>::docs().unwrap_or_default(),
                    <$ty as TS>::decl(config)
                ),
                refers_to: <$ty as TS>::dependencies(config)
                    .into_iter()
                    .map(|dependency| dependency.ts_name)
                    .collect(),
            });)*
        };
    }
    types!(
        // Errors: every API failure.
        ErrorBody,
        // The runtime configuration in every page.
        RuntimeConfig<'static>,
        // /health, /db-health.
        health::Health,
        health::DbHealth,
        Backend,
        // /api/wisdom.
        wisdom::WisdomAnswer,
        wisdom::WisdomFailure,
        Wisdom,
        // /api/auth/*.
        auth::UserEnvelope<'static>,
        auth::UserData<'static>,
        auth::StoredProfile<'static>,
        auth::ProviderData,
        auth::UpdateProfileBody,
        auth::ProfileBody,
        auth::OauthData,
        auth::LogoutAnswer,
        auth::SessionEnded,
        // /api/auth/sessions*, /api/auth/export, /api/auth/delete-account.
        account::SessionsAnswer,
        account::SessionList,
        account::SessionData,
        account::RevokeSessionBody,
        account::RevokeAnswer,
        account::SessionsRevoked,
        account::DataExport,
        account::ExportedProfile,
        account::DeleteAccountBody,
        account::DeleteAnswer,
        account::AccountDeleted,
        // /api/status, /api/status/history, /api/status/page.
        status::Summary,
        status::State,
        status::ComponentSummary,
        status::Uptime,
        status::Latency,
        status::ViewpointState,
        status::Viewpoint,
        status::Incident,
        status::History,
        status::Range,
        status::Point,
        status::DayMaintenance,
        status::PageBody,
        status::PageHistory,
        // What status operators write (in the summary, and the operator endpoints' answers).
        notices::Notice,
        notices::NoticeUpdate,
        notices::NoticeKind,
        notices::NoticeStatus,
        notices::Impact,
        component_status::ComponentStatus,
        // /api/status/operator*, /api/status/incidents*, /api/status/maintenances*,
        // /api/status/components/{id}.
        operator::OperatorView,
        operator::OperatorLimits,
        operator::OpenNotice,
        operator::PostedNotice,
        operator::PostedUpdate,
        operator::OperatorLog,
        operator::OperatorAction,
        operator::OpenIncident,
        operator::ScheduleMaintenance,
        operator::PostUpdate,
        operator::EditUpdate,
        operator::SetComponentStatus,
        operator::ComponentSetting,
        // /api/status/webhooks*.
        webhooks::WebhookFormat,
        operator::AddWebhook,
        operator::Webhook,
        operator::AddedWebhook,
        operator::WebhookList,
        webhooks::DeliveryState,
        operator::Delivery,
        operator::DeliveryLog,
    );
    out
}

/// The file's text.
fn render() -> String {
    // The server's integers (counts, seconds, milliseconds) are far below 2^53: JSON numbers that
    // JSON.parse reads as `number`, not ts-rs's default `bigint`.
    let config = Config::new().with_large_int("number");
    let mut text = String::from(HEADER);
    for declaration in declarations(&config) {
        text.push('\n');
        text.push_str(&declaration.text);
        text.push('\n');
    }
    text
}

fn file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(FILE)
}

#[test]
fn the_committed_typescript_is_what_the_rust_types_give() {
    let rendered = render();
    if std::env::var_os(WRITE).is_some() {
        std::fs::write(file(), &rendered).expect("write the TypeScript file");
        return;
    }
    let committed = std::fs::read_to_string(file()).unwrap_or_default();
    if committed == rendered {
        return;
    }
    let first = committed
        .lines()
        .zip(rendered.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| committed.lines().count().min(rendered.lines().count()));
    panic!(
        "{FILE} is not what the Rust types give (first difference at line {}): run `{COMMAND}` \
         and commit the file.\n  committed: {:?}\n  generated: {:?}",
        first + 1,
        committed.lines().nth(first).unwrap_or("(end of file)"),
        rendered.lines().nth(first).unwrap_or("(end of file)"),
    );
}

#[test]
fn every_type_the_contract_refers_to_is_in_it() {
    let all = declarations(&Config::new());
    let declared: BTreeSet<&str> = all.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(declared.len(), all.len(), "a type is listed twice");
    let missing: BTreeSet<&str> = all
        .iter()
        .flat_map(|d| d.refers_to.iter().map(String::as_str))
        .filter(|name| !declared.contains(name))
        .collect();
    assert!(
        missing.is_empty(),
        "types the contract refers to but does not list (add them to `declarations`): {missing:?}"
    );
}
