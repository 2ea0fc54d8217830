//! The mg web server: reads its configuration, starts logging, serves until Ctrl-C or SIGTERM.

use mg_server::{config::Config, startup::Application, telemetry};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    telemetry::init();
    let config = Config::from_env()?;
    let app = Application::build(config).await?;
    app.run_until_stopped().await?;
    Ok(())
}
