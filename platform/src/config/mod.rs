//! Server configuration, read once from the environment at start.

mod error;
pub mod network;
pub mod status;

use std::{env, net::IpAddr, path::PathBuf, time::Duration};

pub use self::error::ConfigError;

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
    /// `DATABASE_MAX_CONNECTIONS`: the pool's size (default 8 on SQLite, 16 on PostgreSQL).
    pub database_max_connections: Option<u32>,
    /// `STATIC_DIR`: the built app to serve (default `app/dist`).
    pub static_dir: PathBuf,
    /// `IDENTITY_PROJECT_ID`: the identity project whose session tokens are accepted (`iss` rule);
    /// with the local emulator on it defaults to [`LOCAL_EMULATOR_PROJECT_ID`].
    pub identity_project_id: Option<String>,
    /// `IDENTITY_BASE_URL`: the external identity provider's API; keys come from
    /// `{base}/v2/keys/{projectId}`. Unset: the local identity emulator runs inside this server.
    pub identity_base_url: Option<String>,
    /// `IDENTITY_EMULATOR=on`: run the local identity emulator even though `HOST` is not a
    /// loopback address (a loud banner at start, a marker in the app). Off by default.
    pub identity_emulator_public: bool,
    /// `IDENTITY_AUDIENCE`: when set, session tokens must carry it in `aud` (default: not checked).
    pub identity_audience: Option<String>,
    /// Not an environment variable: how long an emulator OAuth code stays valid (5 minutes).
    pub emulator_code_ttl: Duration,
    /// Not an environment variable: the clock of the session tokens' expiry, the emulator's codes
    /// and `/db-health`'s reuse of its last write (`time::Clock`, the system clock); tests advance
    /// it instead of waiting.
    pub clock: crate::time::Clock,
    /// Not an environment variable: how often the app's documents are looked at again on disk
    /// ([`STATIC_RECHECK`], a second: a rebuilt app is served within it; tests use zero to see
    /// every rewrite at once).
    pub static_recheck: Duration,
    /// `SANCTIFIED`: sign-in mode of the app (`true` by default; `false` = open mode, no sign-in).
    pub sanctified: bool,
    /// `DEPLOYMENT_ID`: an identifier of this deployment, shown by the app (default none).
    pub deployment_id: Option<String>,
    /// `DEPLOYMENT_FLAGS`: a JSON object string of deployment flags handed to the app (default none).
    pub deployment_flags: Option<String>,
    /// `DEPLOYMENT_TYPE`: the kind of deployment (e.g. `ethereal`), handed to the app (default none).
    pub deployment_type: Option<String>,
    /// `PUBLIC_URL`: the site's origin as people reach it (`https://mg.example.com`), written into
    /// the pages' canonical and Open Graph links, the sitemap and robots.txt (default
    /// `http://localhost:{PORT}`).
    pub public_url: String,
    /// `ALLOWED_ORIGINS`: comma-separated origins allowed to call the API cross-origin (default none).
    pub allowed_origins: Vec<String>,
    /// `RATE_LIMIT_PER_MINUTE`: requests per minute per client IP on `/api/auth/*` and
    /// `/api/wisdom` (default 120, with bursts of up to a quarter of it).
    pub rate_limit_per_minute: u32,
    /// `STATUS_CHECK_INTERVAL`, `TELEKINESIS_QUEUE_URL`, `INSTANCE_ID`: the status checks.
    pub status: status::StatusConfig,
    /// Connections, `TRUSTED_PROXIES`, rate-limit memory and `METRICS_TOKEN` (see `network.rs`).
    pub network: network::NetworkConfig,
}

/// The identity project id the local emulator uses when `IDENTITY_PROJECT_ID` is not set.
pub const LOCAL_EMULATOR_PROJECT_ID: &str = "P2localemulator";

/// How long an emulator OAuth code is valid by default.
pub const EMULATOR_CODE_TTL: Duration = Duration::from_secs(300);
/// How often the app's documents are looked at again on disk (see [`Config::static_recheck`]).
pub const STATIC_RECHECK: Duration = Duration::from_secs(1);

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
        let non_empty = |name: &str| {
            lookup(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let identity_base_url = non_empty("IDENTITY_BASE_URL");
        if let Some(url) = &identity_base_url {
            if !(url.starts_with("https://") || url.starts_with("http://")) {
                return Err(ConfigError::Invalid {
                    name: "IDENTITY_BASE_URL",
                    reason: format!("'{url}' is not an http(s) URL"),
                });
            }
        }
        let allowed_origins = match non_empty("ALLOWED_ORIGINS") {
            Some(raw) => raw
                .split(',')
                .map(|origin| origin.trim().trim_end_matches('/'))
                .filter(|origin| !origin.is_empty())
                .map(checked_origin)
                .collect::<Result<_, _>>()?,
            None => Vec::new(),
        };
        let identity_emulator_public = match non_empty("IDENTITY_EMULATOR") {
            None => false,
            Some(v) if v.eq_ignore_ascii_case("on") => true,
            Some(v) => {
                return Err(ConfigError::Invalid {
                    name: "IDENTITY_EMULATOR",
                    reason: format!("'{v}' is not 'on' (leave it unset unless the emulator must run on a non-loopback HOST)"),
                })
            }
        };
        let rate_limit_per_minute =
            match non_empty("RATE_LIMIT_PER_MINUTE") {
                Some(raw) => raw.parse().ok().filter(|n: &u32| *n > 0).ok_or_else(|| {
                    ConfigError::Invalid {
                        name: "RATE_LIMIT_PER_MINUTE",
                        reason: format!("'{raw}' is not a positive number"),
                    }
                })?,
                None => 120,
            };
        let database_max_connections = match non_empty("DATABASE_MAX_CONNECTIONS") {
            Some(raw) => Some(raw.parse().ok().filter(|n: &u32| *n > 0).ok_or_else(|| {
                ConfigError::Invalid {
                    name: "DATABASE_MAX_CONNECTIONS",
                    reason: format!("'{raw}' is not a positive number"),
                }
            })?),
            None => None,
        };
        let sanctified = match non_empty("SANCTIFIED").map(|v| v.to_ascii_lowercase()) {
            None => true,
            Some(v) if ["true", "1", "yes", "on"].contains(&v.as_str()) => true,
            Some(v) if ["false", "0", "no", "off"].contains(&v.as_str()) => false,
            Some(v) => {
                return Err(ConfigError::Invalid {
                    name: "SANCTIFIED",
                    reason: format!("'{v}' is not true or false"),
                })
            }
        };
        let deployment_flags = non_empty("DEPLOYMENT_FLAGS");
        if let Some(flags) = &deployment_flags {
            // The browser reads the flags by the same rule, `mg_domain::DeploymentFlags`' (spec 3, 5):
            // what fails here would leave it on the defaults with a warning.
            if serde_json::from_str::<mg_domain::DeploymentFlags>(flags).is_err() {
                return Err(ConfigError::Invalid {
                    name: "DEPLOYMENT_FLAGS",
                    reason: format!(
                        "expected a JSON object of booleans named {}, e.g. {{\"ethereal\": true}}",
                        mg_domain::FLAG_NAMES.join(", ")
                    ),
                });
            }
        }
        let public_url = match non_empty("PUBLIC_URL") {
            Some(raw) => checked_public_url(&raw)?,
            None => format!("http://localhost:{port}"),
        };
        let status = status::StatusConfig::from_lookup(&lookup, port)?;
        Ok(Self {
            host,
            port,
            data_dir,
            database_url,
            database_max_connections,
            static_dir,
            identity_project_id: non_empty("IDENTITY_PROJECT_ID"),
            identity_base_url,
            identity_emulator_public,
            identity_audience: non_empty("IDENTITY_AUDIENCE"),
            emulator_code_ttl: EMULATOR_CODE_TTL,
            clock: crate::time::Clock::default(),
            static_recheck: STATIC_RECHECK,
            sanctified,
            deployment_id: non_empty("DEPLOYMENT_ID"),
            deployment_flags,
            deployment_type: non_empty("DEPLOYMENT_TYPE"),
            public_url,
            allowed_origins,
            rate_limit_per_minute,
            status,
            network: network::NetworkConfig::from_lookup(&lookup)?,
        })
        .and_then(Self::checked)
    }

    /// Refuses a configuration that would expose the local identity emulator without
    /// `IDENTITY_EMULATOR=on`: on a non-loopback address, or behind a reverse proxy (a server told
    /// to trust proxies is public through them, whatever its `HOST`). Checked again by
    /// `Application::build`.
    pub fn checked(self) -> Result<Self, ConfigError> {
        if self.identity_emulator_enabled() && !self.identity_emulator_public {
            if !self.host.is_loopback() {
                return Err(ConfigError::EmulatorExposed(self.host));
            }
            if !self.network.trusted_proxies.is_empty() {
                return Err(ConfigError::EmulatorBehindProxy);
            }
        }
        Ok(self)
    }

    /// Refuses what a build cannot run: a build without the identity emulator linked in (the
    /// production build) needs `IDENTITY_BASE_URL` and refuses `IDENTITY_EMULATOR=on`. Checked by
    /// `Application::build`, which knows whether the emulator is linked.
    pub fn runnable_with(self, emulator_linked: bool) -> Result<Self, ConfigError> {
        if !emulator_linked {
            if self.identity_emulator_public {
                return Err(ConfigError::EmulatorNotBuilt);
            }
            if self.identity_base_url.is_none() {
                return Err(ConfigError::NoIdentityProvider);
            }
            // The status answers, the feed, the badges' links and the webhooks' bodies leave the
            // site with absolute links on this origin: a production server must know its own.
            if is_local_origin(&self.public_url) {
                return Err(ConfigError::NoPublicUrl);
            }
        }
        Ok(self)
    }

    /// The local identity emulator runs when no external identity provider is configured.
    pub fn identity_emulator_enabled(&self) -> bool {
        self.identity_base_url.is_none()
    }

    /// The app shows its "local identity emulator" marker: the emulator runs on a public address
    /// on purpose (`IDENTITY_EMULATOR=on`).
    pub fn shows_emulator_marker(&self) -> bool {
        self.identity_emulator_enabled() && self.identity_emulator_public
    }

    /// The identity project whose tokens are accepted: the configured one, or the emulator's default.
    pub fn effective_identity_project_id(&self) -> Option<&str> {
        match &self.identity_project_id {
            Some(id) => Some(id),
            None if self.identity_emulator_enabled() => Some(LOCAL_EMULATOR_PROJECT_ID),
            None => None,
        }
    }
}

/// Whether `origin` names this machine (the default `http://localhost:{PORT}`, or a loopback
/// address): links on it mean nothing to anyone else.
fn is_local_origin(origin: &str) -> bool {
    let rest = origin.split_once("://").map_or(origin, |(_, rest)| rest);
    let host = match rest.rsplit_once(':') {
        Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => rest,
    };
    matches!(host, "localhost" | "127.0.0.1" | "[::1]")
}

/// `PUBLIC_URL` as an origin (one trailing slash allowed), normalised (`HTTPS://X.example:443/` ->
/// `https://x.example`).
fn checked_public_url(raw: &str) -> Result<String, ConfigError> {
    let trimmed = raw.strip_suffix('/').unwrap_or(raw);
    checked_origin(trimmed).map_err(|_| ConfigError::Invalid {
        name: "PUBLIC_URL",
        reason: format!(
            "'{raw}' is not an http(s) origin; expected scheme://host[:port] such as https://mg.example.com"
        ),
    })
}

/// `raw` when it is an origin (`scheme://host[:port]`, http or https, nothing after it).
fn checked_origin(raw: &str) -> Result<String, ConfigError> {
    let refused = |why: &str| {
        ConfigError::Invalid {
        name: "ALLOWED_ORIGINS",
        reason: format!("'{raw}' {why}; expected origins such as https://app.example.com or http://localhost:5173, comma-separated"),
    }
    };
    if raw.eq_ignore_ascii_case("null") {
        return Err(refused(
            "is the opaque origin of sandboxed pages and files, which anyone can send",
        ));
    }
    let url = url::Url::parse(raw).map_err(|_| refused("is not a URL"))?;
    let origin = url.origin();
    if !matches!(url.scheme(), "http" | "https") || !origin.is_tuple() {
        return Err(refused("is not an http(s) origin"));
    }
    // Parsing adds "/" as the path; anything else (a path, query, fragment or user) is not an origin.
    let bare = url.path() == "/"
        && !raw.ends_with('/')
        && url.query().is_none()
        && url.fragment().is_none()
        && url.username().is_empty()
        && url.password().is_none();
    if !bare {
        return Err(refused("has more than scheme://host[:port]"));
    }
    Ok(origin.ascii_serialization())
}

/// For tests: an environment that holds only `pairs` (the last of a name wins), to look up.
#[cfg(test)]
pub(crate) fn environment_of<'a>(
    pairs: &'a [(&'a str, &'a str)],
) -> impl Fn(&str) -> Option<String> + 'a {
    |name| {
        let mut values = pairs.iter().filter(|(key, _)| *key == name);
        values.next_back().map(|(_, value)| (*value).to_owned())
    }
}

#[cfg(test)]
mod tests;
