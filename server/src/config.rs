//! Server configuration, read once from the environment at start.

use std::{env, net::IpAddr, path::PathBuf};

use thiserror::Error;

/// Everything the server needs to start. Every field has a default that makes `make run` work offline.
#[derive(Debug, Clone)]
pub struct Config {
    /// `HOST`: the address to listen on (default `127.0.0.1`; `0.0.0.0` to accept outside connections).
    pub host: IpAddr,
    /// `PORT`: the TCP port (default 3000; 0 picks a free port, as the tests do).
    pub port: u16,
    /// `DATA_DIR`: where the embedded SQLite database and other local state live (default `./data`).
    pub data_dir: PathBuf,
    /// `DATABASE_URL`: `sqlite://...` or `postgres://...` (default: SQLite file `mg.db` in `DATA_DIR`).
    pub database_url: String,
    /// `STATIC_DIR`: the built app to serve (default `app/dist`).
    pub static_dir: PathBuf,
}

#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("{name} is not valid: {reason}")]
    Invalid { name: &'static str, reason: String },
}

impl Config {
    /// Reads the configuration from the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| env::var(name).ok())
    }

    /// Reads the configuration through `lookup` (the environment, or a map in tests).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let host = match lookup("HOST") {
            Some(raw) => raw.parse().map_err(|_| ConfigError::Invalid {
                name: "HOST",
                reason: format!("'{raw}' is not an IP address"),
            })?,
            None => IpAddr::from([127, 0, 0, 1]),
        };
        let port = match lookup("PORT") {
            Some(raw) => raw.parse().map_err(|_| ConfigError::Invalid {
                name: "PORT",
                reason: format!("'{raw}' is not a port number (0-65535)"),
            })?,
            None => 3000,
        };
        let data_dir = PathBuf::from(lookup("DATA_DIR").unwrap_or_else(|| "data".into()));
        let database_url = match lookup("DATABASE_URL").filter(|url| !url.trim().is_empty()) {
            Some(url) if url.starts_with("sqlite:") || url.starts_with("postgres") => url,
            Some(_) => {
                return Err(ConfigError::Invalid {
                    name: "DATABASE_URL",
                    reason: "expected a sqlite:// or postgres:// URL".into(),
                })
            }
            None => format!("sqlite://{}?mode=rwc", data_dir.join("mg.db").display()),
        };
        let static_dir = PathBuf::from(lookup("STATIC_DIR").unwrap_or_else(|| "app/dist".into()));
        Ok(Self {
            host,
            port,
            data_dir,
            database_url,
            static_dir,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config_from(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(|name| map.get(name).cloned())
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
    fn the_data_directory_moves_the_default_database() {
        let config = config_from(&[("DATA_DIR", "/var/lib/mg")]).expect("valid");
        assert_eq!(config.database_url, "sqlite:///var/lib/mg/mg.db?mode=rwc");
    }
}
