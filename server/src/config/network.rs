//! The server's edge settings (connections, proxies, rate-limit memory, the metrics token), read
//! from the environment as part of [`crate::config::Config`].

use std::time::Duration;

use super::ConfigError;
use crate::forwarded::TrustedProxies;

/// Default `HEADER_READ_TIMEOUT_SECS`: a client must send its whole header block within this.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Default `IDLE_TIMEOUT_SECS`: a connection with no bytes moving either way for this long is closed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// Default `MAX_CONNECTIONS`: open connections at once; more wait in the listen backlog.
pub const MAX_CONNECTIONS: usize = 4096;
/// Default `MAX_CONNECTIONS_PER_CLIENT`: open connections one client address (an IPv6 /64) may
/// hold at once, so one client cannot take every slot; the trusted proxies' own addresses aside.
/// A browser opens at most six per host.
pub const MAX_CONNECTIONS_PER_CLIENT: usize = 256;
/// Default `RATE_LIMIT_MAX_CLIENTS`: client addresses the rate limiter remembers (least recently
/// seen forgotten first); about 80 bytes each.
pub const RATE_LIMIT_MAX_CLIENTS: usize = 100_000;

/// Connection limits, the proxies whose forwarding headers are believed, and who may read `/metrics`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkConfig {
    /// `TRUSTED_PROXIES`: comma-separated CIDRs or addresses of reverse proxies (default none).
    /// Only from these peers are `X-Forwarded-For`/`Forwarded`, `X-Forwarded-Proto` and
    /// `X-Forwarded-Host` believed.
    pub trusted_proxies: TrustedProxies,
    /// `HEADER_READ_TIMEOUT_SECS`: how long a client may take to send a request's headers (10).
    pub header_read_timeout: Duration,
    /// `IDLE_TIMEOUT_SECS`: how long a connection may sit with no bytes moving (60).
    pub idle_timeout: Duration,
    /// `MAX_CONNECTIONS`: open connections at once (4096); keep it below the open-files limit.
    pub max_connections: usize,
    /// `MAX_CONNECTIONS_PER_CLIENT`: open connections per client address (256); connections from
    /// `TRUSTED_PROXIES` are not counted per address, only against `MAX_CONNECTIONS`.
    pub max_connections_per_client: usize,
    /// `RATE_LIMIT_MAX_CLIENTS`: client addresses the rate limiter keeps (100,000).
    pub rate_limit_max_clients: usize,
    /// `METRICS_TOKEN`: a bearer token that opens `/metrics` to non-loopback peers (default none:
    /// loopback only).
    pub metrics_token: Option<String>,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        Self {
            trusted_proxies: TrustedProxies::default(),
            header_read_timeout: HEADER_READ_TIMEOUT,
            idle_timeout: IDLE_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
            max_connections_per_client: MAX_CONNECTIONS_PER_CLIENT,
            rate_limit_max_clients: RATE_LIMIT_MAX_CLIENTS,
            metrics_token: None,
        }
    }
}

impl NetworkConfig {
    /// Reads the variables above through `lookup`; unset or blank ones take their defaults.
    pub fn from_lookup(lookup: &dyn Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let get = |name: &str| {
            lookup(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let positive = |name: &'static str, default: u64| match get(name) {
            None => Ok(default),
            Some(raw) => {
                raw.parse::<u64>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| ConfigError::Invalid {
                        name,
                        reason: format!("'{raw}' is not a positive whole number"),
                    })
            }
        };
        let trusted_proxies = match get("TRUSTED_PROXIES") {
            None => TrustedProxies::default(),
            Some(raw) => TrustedProxies::parse(&raw).map_err(|reason| ConfigError::Invalid {
                name: "TRUSTED_PROXIES",
                reason,
            })?,
        };
        Ok(Self {
            trusted_proxies,
            header_read_timeout: Duration::from_secs(positive(
                "HEADER_READ_TIMEOUT_SECS",
                HEADER_READ_TIMEOUT.as_secs(),
            )?),
            idle_timeout: Duration::from_secs(positive(
                "IDLE_TIMEOUT_SECS",
                IDLE_TIMEOUT.as_secs(),
            )?),
            max_connections: usize::try_from(positive("MAX_CONNECTIONS", MAX_CONNECTIONS as u64)?)
                .unwrap_or(MAX_CONNECTIONS),
            max_connections_per_client: usize::try_from(positive(
                "MAX_CONNECTIONS_PER_CLIENT",
                MAX_CONNECTIONS_PER_CLIENT as u64,
            )?)
            .unwrap_or(MAX_CONNECTIONS_PER_CLIENT),
            rate_limit_max_clients: usize::try_from(positive(
                "RATE_LIMIT_MAX_CLIENTS",
                RATE_LIMIT_MAX_CLIENTS as u64,
            )?)
            .unwrap_or(RATE_LIMIT_MAX_CLIENTS),
            metrics_token: get("METRICS_TOKEN"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn read(pairs: &[(&str, &str)]) -> Result<NetworkConfig, ConfigError> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        NetworkConfig::from_lookup(&|name| map.get(name).cloned())
    }

    #[test]
    fn defaults_trust_no_proxy_and_bound_every_connection() {
        let config = read(&[]).expect("defaults");
        assert_eq!(config, NetworkConfig::default());
        assert!(config.trusted_proxies.is_empty());
        assert_eq!(config.header_read_timeout, Duration::from_secs(10));
        assert_eq!(config.idle_timeout, Duration::from_secs(60));
        assert_eq!(config.max_connections, 4096);
        assert_eq!(config.max_connections_per_client, 256);
        assert_eq!(config.metrics_token, None);
    }

    #[test]
    fn every_variable_is_read_and_junk_is_a_clear_error() {
        let config = read(&[
            ("TRUSTED_PROXIES", "127.0.0.1/32, 10.0.0.0/8"),
            ("HEADER_READ_TIMEOUT_SECS", "5"),
            ("IDLE_TIMEOUT_SECS", "30"),
            ("MAX_CONNECTIONS", "500"),
            ("MAX_CONNECTIONS_PER_CLIENT", "20"),
            ("RATE_LIMIT_MAX_CLIENTS", "1000"),
            ("METRICS_TOKEN", " s3cret "),
        ])
        .expect("valid");
        assert!(config.trusted_proxies.contains([10, 1, 2, 3].into()));
        assert_eq!(config.header_read_timeout, Duration::from_secs(5));
        assert_eq!(config.idle_timeout, Duration::from_secs(30));
        assert_eq!(config.max_connections, 500);
        assert_eq!(config.max_connections_per_client, 20);
        assert_eq!(config.rate_limit_max_clients, 1000);
        assert_eq!(config.metrics_token.as_deref(), Some("s3cret"));

        let error = read(&[("MAX_CONNECTIONS", "0")]).expect_err("zero");
        assert_eq!(
            error.to_string(),
            "MAX_CONNECTIONS is not valid: '0' is not a positive whole number"
        );
        let error = read(&[("TRUSTED_PROXIES", "nginx")]).expect_err("not a CIDR");
        assert!(error
            .to_string()
            .starts_with("TRUSTED_PROXIES is not valid: 'nginx'"));
    }
}
