//! The mg web server: reads its configuration, starts logging, serves until Ctrl-C or SIGTERM.
//! A start that cannot go on (a bad setting, the database unreachable, the port taken) ends with
//! one line saying why and exit status 1, never a stack trace.

use std::process::ExitCode;

use mg_server::{config::Config, startup::Application, telemetry};

#[tokio::main]
async fn main() -> ExitCode {
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
