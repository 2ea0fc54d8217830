//! The mg web server: reads its configuration, starts logging, serves until Ctrl-C or SIGTERM.
//! A start that cannot go on (a bad setting, the database unreachable, the port taken) ends with
//! one line saying why and exit status 1, never a stack trace.

use std::process::ExitCode;

use mg_server::{config::Config, startup::Application, telemetry};

/// Every setting, with its default and meaning: the repository's commented `.env.example`, so the
/// help and the example never disagree.
const SETTINGS: &str = include_str!("../../.env.example");

#[tokio::main]
async fn main() -> ExitCode {
    // A server binary answers --help and --version without starting (nor creating `data/`).
    match std::env::args().nth(1).as_deref() {
        Some("-h" | "--help") => {
            print!("{}", help());
            return ExitCode::SUCCESS;
        }
        Some("-V" | "--version") => {
            println!("mg-server {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Some(other) => {
            eprintln!(
                "mg-server: unknown argument '{other}'; the server takes its settings from the \
                 environment (mg-server --help lists them)"
            );
            return ExitCode::from(2);
        }
        None => {}
    }
    telemetry::init();
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // `{:#}` writes the error and its causes on one line.
            eprintln!("mg-server: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let app = Application::build(config).await?;
    app.run_until_stopped().await?;
    Ok(())
}

fn help() -> String {
    let emulator = if cfg!(feature = "emulator") {
        "with the local identity emulator (development)"
    } else {
        "without the local identity emulator (production: IDENTITY_BASE_URL is required)"
    };
    format!(
        "mg-server {version}: the mg web app's API, status page and site, {emulator}.\n\n\
         Usage: mg-server [--help | --version]\n\n\
         Every setting is an environment variable, read once at start; a value the server cannot\n\
         use stops it with a sentence naming the variable. The settings, their defaults and\n\
         what they mean:\n\n{SETTINGS}",
        version = env!("CARGO_PKG_VERSION"),
    )
}
