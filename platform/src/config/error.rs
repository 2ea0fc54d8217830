//! Why the configuration refuses to start the server.

use std::net::IpAddr;

use thiserror::Error;

/// A setting that cannot be used, or a combination the server refuses to start with.
#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("{name} is not valid: {reason}")]
    Invalid { name: &'static str, reason: String },
    #[error(
        "refusing to start: HOST {0} is not a loopback address and no IDENTITY_BASE_URL is set, so \
         the local identity emulator (which signs in anyone who types an e-mail address) would face \
         the network. Set IDENTITY_BASE_URL and IDENTITY_PROJECT_ID to use a real identity \
         provider, or HOST=127.0.0.1, or IDENTITY_EMULATOR=on to run the emulator there on purpose"
    )]
    EmulatorExposed(IpAddr),
    #[error(
        "refusing to start: TRUSTED_PROXIES is set, so this server sits behind a reverse proxy and \
         faces the network through it, but no IDENTITY_BASE_URL is set, so the local identity \
         emulator (which signs in anyone who types an e-mail address) would be public. Set \
         IDENTITY_BASE_URL and IDENTITY_PROJECT_ID to use a real identity provider, or \
         IDENTITY_EMULATOR=on to run the emulator behind the proxy on purpose"
    )]
    EmulatorBehindProxy,
    #[error(
        "refusing to start: IDENTITY_EMULATOR=on asks for the local identity emulator, which this \
         production build does not contain. Unset IDENTITY_EMULATOR and set IDENTITY_BASE_URL and \
         IDENTITY_PROJECT_ID to the identity provider"
    )]
    EmulatorNotBuilt,
    #[error(
        "refusing to start: IDENTITY_BASE_URL is not set, and this production build has no local \
         identity emulator to stand in. Set IDENTITY_BASE_URL and IDENTITY_PROJECT_ID to the \
         identity provider"
    )]
    NoIdentityProvider,
    #[error(
        "refusing to start: PUBLIC_URL is not set (or names this machine), and this production \
         build writes absolute links into the status page's Statuspage JSON, feed, badges and \
         webhook bodies. Set PUBLIC_URL to the site's public origin, e.g. https://mg.example.com"
    )]
    NoPublicUrl,
}
