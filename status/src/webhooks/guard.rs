//! Where a webhook may point: an `http(s)` URL whose host resolves only to public addresses. A
//! loopback, private, link-local, shared (CGNAT), unspecified, multicast or documentation address
//! is refused, in IPv4, IPv6 and IPv4-mapped forms, unless `STATUS_WEBHOOKS_ALLOW_PRIVATE` allows
//! it. The check runs when a webhook is added and again before every delivery, and the delivery
//! connects to the very address checked (no second lookup an attacker's DNS could answer
//! differently).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use super::limits::MAX_URL_CHARS;

/// A URL checked, with the address to connect to.
#[derive(Debug, Clone)]
pub struct Vetted {
    pub url: url::Url,
    /// The host as written (what the request names), and the address it resolved to.
    pub host: String,
    pub address: SocketAddr,
}

/// Whether `ip` is an address a webhook must not reach without `STATUS_WEBHOOKS_ALLOW_PRIVATE`.
pub fn is_forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => forbidden_v4(v4),
            None => forbidden_v6(v6),
        },
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_multicast()
        || ip.is_broadcast()
        || ip.is_documentation()
        || a == 0
        // Shared address space (carrier-grade NAT), 100.64.0.0/10.
        || (a == 100 && (64..128).contains(&b))
        // Reserved, 240.0.0.0/4.
        || a >= 240
}

fn forbidden_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    let [.., a, b, c, d] = ip.octets();
    let embedded = Ipv4Addr::new(a, b, c, d);
    ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        // Unique local, fc00::/7.
        || (first & 0xfe00) == 0xfc00
        // Link-local, fe80::/10.
        || (first & 0xffc0) == 0xfe80
        // IPv4-compatible (deprecated) ::a.b.c.d, and NAT64 64:ff9b::/96 wrapping a private one.
        || (ip.segments()[..6] == [0; 6])
        || (ip.segments()[..6] == [0x64, 0xff9b, 0, 0, 0, 0]
            && forbidden_v4(embedded))
        // Documentation, 2001:db8::/32.
        || (first == 0x2001 && ip.segments()[1] == 0x0db8)
}

/// The URL's form: `http` or `https`, a host, no user or password, at most [`MAX_URL_CHARS`]
/// characters. The message says what is wrong.
pub fn parse(raw: &str) -> Result<url::Url, String> {
    let raw = raw.trim();
    if raw.is_empty() || raw.chars().count() > MAX_URL_CHARS {
        return Err(format!("url must be 1 to {MAX_URL_CHARS} characters."));
    }
    let url = url::Url::parse(raw).map_err(|_| "url is not a valid URL.".to_owned())?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err("url must start with https:// or http://.".into());
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err("url must name a host.".into());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("url must not hold a user name or password.".into());
    }
    Ok(url)
}

/// Resolves `url`'s host and picks the address to connect to: refused (with the reason) when it
/// does not resolve, or when any address it resolves to is forbidden and `allow_private` is off.
pub async fn vet(url: &url::Url, allow_private: bool) -> Result<Vetted, String> {
    let host = url.host_str().unwrap_or_default().to_owned();
    let port = url.port_or_known_default().unwrap_or(443);
    let addresses: Vec<SocketAddr> = match url.host() {
        Some(url::Host::Ipv4(ip)) => vec![SocketAddr::new(IpAddr::V4(ip), port)],
        Some(url::Host::Ipv6(ip)) => vec![SocketAddr::new(IpAddr::V6(ip), port)],
        _ => {
            let lookup = tokio::net::lookup_host((host.as_str(), port));
            match tokio::time::timeout(std::time::Duration::from_secs(5), lookup).await {
                Ok(Ok(found)) => found.collect(),
                _ => Vec::new(),
            }
        }
    };
    let Some(first) = addresses.first().copied() else {
        return Err(format!("The host {host} does not resolve."));
    };
    if !allow_private {
        if let Some(bad) = addresses.iter().find(|a| is_forbidden(a.ip())) {
            return Err(format!(
                "The host {host} resolves to {}, a loopback, private or link-local address: \
                 webhooks must reach a public address.",
                bad.ip()
            ));
        }
    }
    Ok(Vetted {
        url: url.clone(),
        host,
        address: first,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_and_special_addresses_are_forbidden_and_public_ones_are_not() {
        for bad in [
            "127.0.0.1",
            "10.0.0.1",
            "172.16.5.4",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fc00::1",
            "fd12::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.1.2.3",
            "::127.0.0.1",
            "64:ff9b::a00:1",
            "ff02::1",
        ] {
            assert!(is_forbidden(bad.parse().expect("ip")), "{bad}");
        }
        for good in [
            "93.184.216.34",
            "8.8.8.8",
            "2606:4700::1111",
            "::ffff:1.1.1.1",
        ] {
            assert!(!is_forbidden(good.parse().expect("ip")), "{good}");
        }
    }

    #[test]
    fn only_plain_http_urls_with_a_host_pass() {
        assert!(parse("https://hooks.example.com/x?y=1").is_ok());
        assert!(parse("http://hooks.example.com").is_ok());
        for bad in [
            "",
            "ftp://example.com",
            "file:///etc/passwd",
            "https://user:pw@example.com",
            "not a url",
            "javascript:alert(1)",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let long = format!("https://example.com/{}", "a".repeat(MAX_URL_CHARS));
        assert!(parse(&long).is_err());
    }

    #[tokio::test]
    async fn a_literal_private_address_is_refused_unless_allowed() {
        let url = parse("http://127.0.0.1:9/hook").expect("url");
        assert!(vet(&url, false).await.is_err());
        let vetted = vet(&url, true).await.expect("allowed");
        assert_eq!(vetted.address, "127.0.0.1:9".parse().expect("addr"));
        let mapped = parse("http://[::ffff:169.254.169.254]/").expect("url");
        assert!(vet(&mapped, false).await.is_err());
        let localhost = parse("http://localhost:9/").expect("url");
        assert!(vet(&localhost, false).await.is_err());
    }
}
