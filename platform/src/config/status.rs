//! The status checker's settings: `STATUS_CHECK_INTERVAL`, `TELEKINESIS_QUEUE_URL`, `INSTANCE_ID`,
//! `IDENTITY_EMULATOR_OPERATORS`, `STATUS_WEBHOOKS_ALLOW_PRIVATE`.

use std::time::Duration;

use super::error::ConfigError;

/// Default time between two rounds of checks.
pub const DEFAULT_CHECK_INTERVAL: Duration = Duration::from_secs(30);
/// Bounds of `STATUS_CHECK_INTERVAL` in seconds: under 5 s the checks are load, over an hour the
/// hourly rollups would have holes.
pub const CHECK_INTERVAL_RANGE_SECS: (u64, u64) = (5, 3600);
/// Longest accepted `INSTANCE_ID` (it is stored with every check and shown on the page).
pub const MAX_INSTANCE_ID_LEN: usize = 64;

/// How this instance checks its components.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusConfig {
    /// `STATUS_CHECK_INTERVAL` (seconds, 5-3600, default 30): time between two rounds of checks.
    pub check_interval: Duration,
    /// `TELEKINESIS_QUEUE_URL`: an http(s) URL checked with a GET; without it there is no queue component.
    pub queue_url: Option<String>,
    /// `INSTANCE_ID`: this instance's name as a viewpoint (default `{hostname}:{PORT}`, so it is
    /// the same after a restart). Letters, digits and `._:-`, at most 64 characters.
    pub instance_id: String,
    /// `IDENTITY_EMULATOR_OPERATORS`: e-mail addresses (comma-separated, compared without case) to
    /// which the local identity emulator gives the status-operator role. Development and tests
    /// only; a hosted identity provider grants roles itself.
    pub emulator_operators: Vec<String>,
    /// `STATUS_WEBHOOKS_ALLOW_PRIVATE` (`false` by default): whether a webhook may point at a
    /// loopback, private or link-local address. Off, such a webhook is refused when added and
    /// again at each delivery (docs/status-operators.md); tests and a private network turn it on.
    pub webhooks_allow_private: bool,
    /// Not an environment variable: whether this instance sends the webhooks' deliveries (every
    /// instance does; a test turns it off to choose which instance sends).
    pub webhooks_worker: bool,
    /// Not an environment variable: whether the server checks on its own schedule. Tests turn it
    /// off and drive the checks with `StatusService::check_now`.
    pub scheduler: bool,
}

impl StatusConfig {
    /// Reads the status settings through `lookup`; `port` names the default instance.
    pub fn from_lookup(
        lookup: &impl Fn(&str) -> Option<String>,
        port: u16,
    ) -> Result<Self, ConfigError> {
        let value = |name: &str| {
            lookup(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let check_interval = match value("STATUS_CHECK_INTERVAL") {
            None => DEFAULT_CHECK_INTERVAL,
            Some(raw) => {
                let (low, high) = CHECK_INTERVAL_RANGE_SECS;
                let seconds = raw
                    .parse::<u64>()
                    .ok()
                    .filter(|s| (low..=high).contains(s))
                    .ok_or_else(|| ConfigError::Invalid {
                        name: "STATUS_CHECK_INTERVAL",
                        reason: format!(
                            "'{raw}' is not a whole number of seconds from {low} to {high}"
                        ),
                    })?;
                Duration::from_secs(seconds)
            }
        };
        let queue_url = value("TELEKINESIS_QUEUE_URL");
        if let Some(url) = &queue_url {
            let parsed = url::Url::parse(url).ok();
            if !parsed.is_some_and(|u| matches!(u.scheme(), "http" | "https") && u.has_host()) {
                return Err(ConfigError::Invalid {
                    name: "TELEKINESIS_QUEUE_URL",
                    reason: format!("'{url}' is not an http(s) URL"),
                });
            }
        }
        let instance_id = match value("INSTANCE_ID") {
            Some(id) if is_valid_instance_id(&id) => id,
            Some(id) => {
                return Err(ConfigError::Invalid {
                    name: "INSTANCE_ID",
                    reason: format!(
                        "'{id}' must be 1-{MAX_INSTANCE_ID_LEN} letters, digits or ._:-"
                    ),
                })
            }
            None => default_instance_id(port),
        };
        let emulator_operators = value("IDENTITY_EMULATOR_OPERATORS")
            .map(|list| {
                list.split(',')
                    .map(|email| email.trim().to_lowercase())
                    .filter(|email| !email.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let webhooks_allow_private = match value("STATUS_WEBHOOKS_ALLOW_PRIVATE")
            .map(|v| v.to_ascii_lowercase())
            .as_deref()
        {
            None | Some("false" | "0" | "no" | "off") => false,
            Some("true" | "1" | "yes" | "on") => true,
            Some(other) => {
                return Err(ConfigError::Invalid {
                    name: "STATUS_WEBHOOKS_ALLOW_PRIVATE",
                    reason: format!("'{other}' is not true or false"),
                })
            }
        };
        Ok(Self {
            check_interval,
            queue_url,
            instance_id,
            emulator_operators,
            webhooks_allow_private,
            webhooks_worker: true,
            scheduler: true,
        })
    }

    /// The check interval in milliseconds, the unit of the status history's times.
    pub fn interval_ms(&self) -> i64 {
        i64::try_from(self.check_interval.as_millis()).unwrap_or(i64::MAX)
    }

    /// Settings for tests: no schedule (the test calls `check_now`), no webhook worker (the
    /// webhooks' tests turn it on), no queue, the given name.
    pub fn manual(instance_id: &str) -> Self {
        Self {
            check_interval: DEFAULT_CHECK_INTERVAL,
            queue_url: None,
            instance_id: instance_id.to_owned(),
            emulator_operators: Vec::new(),
            webhooks_allow_private: false,
            webhooks_worker: false,
            scheduler: false,
        }
    }
}

fn is_valid_instance_id(id: &str) -> bool {
    (1..=MAX_INSTANCE_ID_LEN).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._:-".contains(&b))
}

/// `{hostname}:{port}`: stable across restarts of one deployment, distinct between machines.
fn default_instance_id(port: u16) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| {
            h.trim()
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || ".-".contains(*c))
                .take(MAX_INSTANCE_ID_LEN - 6)
                .collect::<String>()
        })
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".into());
    format!("{host}:{port}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::environment_of;

    fn read(pairs: &[(&str, &str)]) -> Result<StatusConfig, ConfigError> {
        StatusConfig::from_lookup(&environment_of(pairs), 3000)
    }

    #[test]
    fn defaults_check_every_30_seconds_without_a_queue_as_host_and_port() {
        let config = read(&[]).expect("defaults are valid");
        assert_eq!(config.check_interval, Duration::from_secs(30));
        assert_eq!(config.queue_url, None);
        assert!(
            config.instance_id.ends_with(":3000"),
            "{}",
            config.instance_id
        );
        assert!(is_valid_instance_id(&config.instance_id));
        assert_eq!(read(&[]).expect("valid").instance_id, config.instance_id);
        assert!(config.scheduler);
    }

    #[test]
    fn the_interval_must_be_a_whole_number_of_seconds_in_range() {
        assert_eq!(
            read(&[("STATUS_CHECK_INTERVAL", "60")])
                .expect("valid")
                .check_interval,
            Duration::from_secs(60)
        );
        for bad in ["0", "4", "3601", "-1", "1.5", "soon"] {
            let error = read(&[("STATUS_CHECK_INTERVAL", bad)]).expect_err(bad);
            assert!(
                error
                    .to_string()
                    .starts_with("STATUS_CHECK_INTERVAL is not valid"),
                "{error}"
            );
        }
    }

    #[test]
    fn the_queue_url_must_be_http_and_the_instance_id_plain() {
        assert!(read(&[("TELEKINESIS_QUEUE_URL", "queue.example")]).is_err());
        assert!(read(&[("TELEKINESIS_QUEUE_URL", "ftp://q.example")]).is_err());
        let ok = read(&[("TELEKINESIS_QUEUE_URL", "https://q.example/health")]).expect("ok");
        assert_eq!(ok.queue_url.as_deref(), Some("https://q.example/health"));
        assert!(read(&[("INSTANCE_ID", "eu-west-1a:3000")]).is_ok());
        assert!(read(&[("INSTANCE_ID", "<script>")]).is_err());
        assert!(read(&[("INSTANCE_ID", &"x".repeat(65))]).is_err());
    }

    #[test]
    fn private_webhook_addresses_are_refused_unless_allowed() {
        assert!(!read(&[]).expect("ok").webhooks_allow_private);
        let allowed = read(&[("STATUS_WEBHOOKS_ALLOW_PRIVATE", "true")]).expect("ok");
        assert!(allowed.webhooks_allow_private);
        assert!(read(&[("STATUS_WEBHOOKS_ALLOW_PRIVATE", "maybe")]).is_err());
    }
}
