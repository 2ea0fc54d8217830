//! The server's edge settings (connections, proxies, rate-limit memory, the metrics token), read
//! from the environment as part of [`crate::config::Config`].

use std::time::Duration;

use super::error::ConfigError;
use crate::forwarded::TrustedProxies;

/// Default `HEADER_READ_TIMEOUT_SECS`: a client must send its whole header block within this.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Default `IDLE_TIMEOUT_SECS`: a connection on which no request made progress for this long is
/// closed (gracefully: GOAWAY on HTTP/2). Only requests count (a head arriving, a handler at work,
/// body data in or out): an HTTP/2 client's PING, SETTINGS or WINDOW_UPDATE frames do not.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// Default `MAX_CONNECTION_AGE_SECS`: a connection is closed gracefully this long after it opened,
/// however busy (an HTTP/2 client gets GOAWAY, finishes its requests and opens a new one). A
/// client that asks for something now and then would otherwise hold its connection, its slot and
/// its instance forever; ten minutes costs a browser one new handshake per ten minutes, and lets
/// clients move to a new or less loaded instance within minutes of a deploy.
pub const MAX_CONNECTION_AGE: Duration = Duration::from_secs(600);
/// Default `MAX_CONNECTIONS`: open connections at once; more wait in the listen backlog.
pub const MAX_CONNECTIONS: usize = 4096;
/// Default `MAX_CONNECTIONS_PER_CLIENT`: open connections one client address (an IPv6 /64) may
/// hold at once, so one client cannot take every slot; the trusted proxies' own addresses aside.
/// A browser opens at most six per host. Never more than `MAX_CONNECTIONS_PER_NETWORK` when that
/// one is set lower.
pub const MAX_CONNECTIONS_PER_CLIENT: usize = 256;
/// Default `MAX_CONNECTIONS_PER_NETWORK`, as a fraction of `MAX_CONNECTIONS`: open connections the
/// addresses of one network (an IPv4 /24, an IPv6 /48) may hold together, so a block of addresses
/// cannot take every slot either. A quarter (1024 of 4096): a block needs four networks to fill
/// the table, and an office or carrier NAT behind one /24 still has room for hundreds of clients.
pub const MAX_CONNECTIONS_PER_NETWORK_DIVISOR: usize = 4;
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
    /// `IDLE_TIMEOUT_SECS`: how long a connection may go without a request making progress (60).
    pub idle_timeout: Duration,
    /// `MAX_CONNECTION_AGE_SECS`: how long a connection may stay open, however busy (600).
    pub max_connection_age: Duration,
    /// `MAX_CONNECTIONS`: open connections at once (4096); keep it below the open-files limit.
    pub max_connections: usize,
    /// `MAX_CONNECTIONS_PER_CLIENT`: open connections per client address (256); connections from
    /// `TRUSTED_PROXIES` are not counted per address, only against `MAX_CONNECTIONS`.
    pub max_connections_per_client: usize,
    /// `MAX_CONNECTIONS_PER_NETWORK`: open connections per IPv4 /24 or IPv6 /48 (a quarter of
    /// `MAX_CONNECTIONS`: 1024); `TRUSTED_PROXIES` are not counted here either.
    pub max_connections_per_network: usize,
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
            max_connection_age: MAX_CONNECTION_AGE,
            max_connections: MAX_CONNECTIONS,
            max_connections_per_client: MAX_CONNECTIONS_PER_CLIENT,
            max_connections_per_network: MAX_CONNECTIONS / MAX_CONNECTIONS_PER_NETWORK_DIVISOR,
            rate_limit_max_clients: RATE_LIMIT_MAX_CLIENTS,
            metrics_token: None,
        }
    }
}

impl NetworkConfig {
    /// Reads the variables above through `lookup`; unset or blank ones take their defaults.
    /// Refuses caps that contradict each other (a per-client cap above the total, say), naming the
    /// variable to change: such a server would not enforce what its settings say.
    pub fn from_lookup(lookup: &dyn Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let get = |name: &str| {
            lookup(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let positive = |name: &'static str| match get(name) {
            None => Ok(None),
            Some(raw) => raw
                .parse::<u64>()
                .ok()
                .filter(|n| *n > 0)
                .map(Some)
                .ok_or_else(|| ConfigError::Invalid {
                    name,
                    reason: format!("'{raw}' is not a positive whole number"),
                }),
        };
        let seconds = |name: &'static str, default: Duration| {
            Ok::<_, ConfigError>(positive(name)?.map_or(default, Duration::from_secs))
        };
        let count = |name: &'static str| {
            Ok::<_, ConfigError>(positive(name)?.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
        };
        let trusted_proxies = match get("TRUSTED_PROXIES") {
            None => TrustedProxies::default(),
            Some(raw) => {
                let proxies =
                    TrustedProxies::parse(&raw).map_err(|reason| ConfigError::Invalid {
                        name: "TRUSTED_PROXIES",
                        reason,
                    })?;
                // Commas and spaces only: whoever wrote it meant to trust a proxy, and trusting
                // none would count every client behind it as the proxy's one address.
                if proxies.is_empty() {
                    return Err(ConfigError::Invalid {
                        name: "TRUSTED_PROXIES",
                        reason: format!(
                            "'{raw}' lists no address or CIDR (e.g. 127.0.0.1/32); leave it unset \
                             to trust no proxy"
                        ),
                    });
                }
                proxies
            }
        };
        let max_connections = count("MAX_CONNECTIONS")?.unwrap_or(MAX_CONNECTIONS);
        let max_connections_per_network = match count("MAX_CONNECTIONS_PER_NETWORK")? {
            Some(n) if n > max_connections => {
                return Err(ConfigError::Invalid {
                    name: "MAX_CONNECTIONS_PER_NETWORK",
                    reason: format!("{n} is more than MAX_CONNECTIONS ({max_connections})"),
                })
            }
            Some(n) => n,
            None => (max_connections / MAX_CONNECTIONS_PER_NETWORK_DIVISOR).max(1),
        };
        let max_connections_per_client = match count("MAX_CONNECTIONS_PER_CLIENT")? {
            Some(n) if n > max_connections => {
                return Err(ConfigError::Invalid {
                    name: "MAX_CONNECTIONS_PER_CLIENT",
                    reason: format!("{n} is more than MAX_CONNECTIONS ({max_connections})"),
                })
            }
            Some(n) if n > max_connections_per_network => {
                return Err(ConfigError::Invalid {
                    name: "MAX_CONNECTIONS_PER_CLIENT",
                    reason: format!(
                        "{n} is more than MAX_CONNECTIONS_PER_NETWORK \
                         ({max_connections_per_network}; by default a quarter of \
                         MAX_CONNECTIONS), which every client address counts against too"
                    ),
                })
            }
            Some(n) => n,
            // Unset, it follows a lower total or network cap rather than contradict it.
            None => MAX_CONNECTIONS_PER_CLIENT.min(max_connections_per_network),
        };
        Ok(Self {
            trusted_proxies,
            header_read_timeout: seconds("HEADER_READ_TIMEOUT_SECS", HEADER_READ_TIMEOUT)?,
            idle_timeout: seconds("IDLE_TIMEOUT_SECS", IDLE_TIMEOUT)?,
            max_connection_age: seconds("MAX_CONNECTION_AGE_SECS", MAX_CONNECTION_AGE)?,
            max_connections,
            max_connections_per_client,
            max_connections_per_network,
            rate_limit_max_clients: count("RATE_LIMIT_MAX_CLIENTS")?
                .unwrap_or(RATE_LIMIT_MAX_CLIENTS),
            metrics_token: get("METRICS_TOKEN"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::environment_of;

    fn read(pairs: &[(&str, &str)]) -> Result<NetworkConfig, ConfigError> {
        NetworkConfig::from_lookup(&environment_of(pairs))
    }

    /// The connection limits, in the order of their variables (the timeouts in seconds).
    fn limits(config: &NetworkConfig) -> [u64; 6] {
        [
            config.header_read_timeout.as_secs(),
            config.idle_timeout.as_secs(),
            config.max_connection_age.as_secs(),
            config.max_connections as u64,
            config.max_connections_per_client as u64,
            config.max_connections_per_network as u64,
        ]
    }

    #[test]
    fn defaults_trust_no_proxy_and_bound_every_connection() {
        let config = read(&[]).expect("defaults");
        assert_eq!(config, NetworkConfig::default());
        assert!(config.trusted_proxies.is_empty());
        assert_eq!(limits(&config), [10, 60, 600, 4096, 256, 1024]);
        assert_eq!(config.metrics_token, None);
    }

    #[test]
    fn every_variable_is_read_and_junk_is_a_clear_error() {
        let config = read(&[
            ("TRUSTED_PROXIES", "127.0.0.1/32, 10.0.0.0/8"),
            ("HEADER_READ_TIMEOUT_SECS", "5"),
            ("IDLE_TIMEOUT_SECS", "30"),
            ("MAX_CONNECTION_AGE_SECS", "900"),
            ("MAX_CONNECTIONS", "500"),
            ("MAX_CONNECTIONS_PER_CLIENT", "20"),
            ("MAX_CONNECTIONS_PER_NETWORK", "100"),
            ("RATE_LIMIT_MAX_CLIENTS", "1000"),
            ("METRICS_TOKEN", " s3cret "),
        ])
        .expect("valid");
        assert!(config.trusted_proxies.contains([10, 1, 2, 3].into()));
        assert_eq!(limits(&config), [5, 30, 900, 500, 20, 100]);
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
        let error = read(&[("MAX_CONNECTION_AGE_SECS", "soon")]).expect_err("not a number");
        assert_eq!(
            error.to_string(),
            "MAX_CONNECTION_AGE_SECS is not valid: 'soon' is not a positive whole number"
        );
    }

    #[test]
    fn trusted_proxies_that_list_nothing_are_refused_and_blank_is_unset() {
        for raw in [",", " , ,", ",,,"] {
            let error = read(&[("TRUSTED_PROXIES", raw)]).expect_err(raw);
            assert!(
                error
                    .to_string()
                    .starts_with("TRUSTED_PROXIES is not valid: ")
                    && error.to_string().contains("lists no address or CIDR"),
                "{raw:?}: {error}"
            );
        }
        // Blank, like every other variable here, is unset.
        let config = read(&[("TRUSTED_PROXIES", "  ")]).expect("blank");
        assert!(config.trusted_proxies.is_empty());
        // Stray commas around real entries are fine.
        let config = read(&[("TRUSTED_PROXIES", ", 10.0.0.1 ,")]).expect("one proxy");
        assert!(config.trusted_proxies.contains([10, 0, 0, 1].into()));
    }

    #[test]
    fn a_per_client_cap_above_the_total_is_refused() {
        let error = read(&[
            ("MAX_CONNECTIONS", "100"),
            ("MAX_CONNECTIONS_PER_CLIENT", "101"),
        ])
        .expect_err("per client above the total");
        assert_eq!(
            error.to_string(),
            "MAX_CONNECTIONS_PER_CLIENT is not valid: 101 is more than MAX_CONNECTIONS (100)"
        );
        // Against the default total too.
        let error =
            read(&[("MAX_CONNECTIONS_PER_CLIENT", "5000")]).expect_err("above the default 4096");
        assert!(error.to_string().starts_with(
            "MAX_CONNECTIONS_PER_CLIENT is not valid: 5000 is more than MAX_CONNECTIONS (4096)"
        ));
        // Equal is allowed.
        let config = read(&[
            ("MAX_CONNECTIONS", "100"),
            ("MAX_CONNECTIONS_PER_NETWORK", "100"),
            ("MAX_CONNECTIONS_PER_CLIENT", "100"),
        ])
        .expect("equal");
        assert_eq!(config.max_connections_per_client, 100);
    }

    #[test]
    fn a_per_network_cap_above_the_total_or_below_the_per_client_cap_is_refused() {
        let error = read(&[
            ("MAX_CONNECTIONS", "100"),
            ("MAX_CONNECTIONS_PER_NETWORK", "200"),
        ])
        .expect_err("per network above the total");
        assert_eq!(
            error.to_string(),
            "MAX_CONNECTIONS_PER_NETWORK is not valid: 200 is more than MAX_CONNECTIONS (100)"
        );
        let error = read(&[
            ("MAX_CONNECTIONS_PER_NETWORK", "50"),
            ("MAX_CONNECTIONS_PER_CLIENT", "60"),
        ])
        .expect_err("per client above per network");
        assert!(
            error.to_string().starts_with(
                "MAX_CONNECTIONS_PER_CLIENT is not valid: 60 is more than MAX_CONNECTIONS_PER_NETWORK (50"
            ),
            "{error}"
        );
        // Against the network cap's default, a quarter of the total, too.
        let error = read(&[("MAX_CONNECTIONS_PER_CLIENT", "2000")]).expect_err("above 1024");
        assert!(
            error.to_string().starts_with(
                "MAX_CONNECTIONS_PER_CLIENT is not valid: 2000 is more than MAX_CONNECTIONS_PER_NETWORK (1024"
            ),
            "{error}"
        );
    }

    #[test]
    fn unset_caps_follow_a_lower_total_instead_of_contradicting_it() {
        let config = read(&[("MAX_CONNECTIONS", "100")]).expect("only the total set");
        assert_eq!(config.max_connections_per_network, 25);
        assert_eq!(config.max_connections_per_client, 25);
        let config = read(&[("MAX_CONNECTIONS", "2")]).expect("a tiny total");
        assert_eq!(config.max_connections_per_network, 1);
        assert_eq!(config.max_connections_per_client, 1);
        let config = read(&[("MAX_CONNECTIONS_PER_NETWORK", "8")]).expect("a small network cap");
        assert_eq!(config.max_connections_per_client, 8);
    }
}
