//! Where a webhook may point: an `http(s)` URL on a usual web port whose host resolves only to
//! globally reachable addresses, as IANA's special-purpose address registries say (IPv4, IPv6,
//! and IPv4 inside IPv6), unless `STATUS_WEBHOOKS_ALLOW_PRIVATE` allows any address and port. The check runs when a webhook is added and again before every delivery, and the delivery
//! connects to the very address checked (no second lookup an attacker's DNS could answer
//! differently).

use std::net::{IpAddr, SocketAddr};

use super::limits::MAX_URL_CHARS;

/// A URL checked, with the address to connect to.
#[derive(Debug, Clone)]
pub struct Vetted {
    pub url: url::Url,
    /// The host as written (what the request names), and the address it resolved to.
    pub host: String,
    pub address: SocketAddr,
}

/// The blocks of IANA's IPv4 Special-Purpose Address Registry that are not globally reachable
/// (RFC 6890 and its updates), and the limited broadcast address.
const IPV4_NOT_GLOBAL: &[(&str, &str)] = &[
    ("0.0.0.0/8", "this network"),
    ("10.0.0.0/8", "private use"),
    ("100.64.0.0/10", "shared address space"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link local"),
    ("172.16.0.0/12", "private use"),
    ("192.0.0.0/24", "IETF protocol assignments"),
    ("192.0.2.0/24", "documentation (TEST-NET-1)"),
    ("192.31.196.0/24", "AS112-v4"),
    ("192.52.193.0/24", "AMT"),
    ("192.88.99.0/24", "deprecated 6to4 relay anycast"),
    ("192.168.0.0/16", "private use"),
    ("192.175.48.0/24", "direct delegation AS112 service"),
    ("198.18.0.0/15", "benchmarking"),
    ("198.51.100.0/24", "documentation (TEST-NET-2)"),
    ("203.0.113.0/24", "documentation (TEST-NET-3)"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),
    ("255.255.255.255/32", "limited broadcast"),
];

/// IPv6: only global unicast (2000::/3) is reachable at all; within it, the blocks of IANA's
/// IPv6 Special-Purpose Address Registry that are not globally reachable, and the ones that carry
/// another protocol's address (6to4, Teredo), whose far end a webhook cannot vouch for.
const IPV6_NOT_GLOBAL: &[(&str, &str)] = &[
    (
        "2001::/23",
        "IETF protocol assignments (Teredo 2001::/32 among them)",
    ),
    ("2001:db8::/32", "documentation"),
    ("2002::/16", "6to4"),
    ("3fff::/20", "documentation"),
];

/// The IETF protocol assignments inside 2001::/23 that IANA lists as globally reachable.
const IPV6_GLOBAL_INSIDE_2001: &[&str] = &[
    "2001:1::1/128",
    "2001:1::2/128",
    "2001:3::/32",
    "2001:4:112::/48",
    "2001:20::/28",
    "2001:30::/28",
];

fn within(ip: IpAddr, blocks: impl IntoIterator<Item = &'static str>) -> bool {
    blocks.into_iter().any(|block| {
        block
            .parse::<ipnet::IpNet>()
            .is_ok_and(|net| net.contains(&ip))
    })
}

/// Whether `ip` is an address a webhook must not reach without `STATUS_WEBHOOKS_ALLOW_PRIVATE`:
/// anything IANA's special-purpose registries do not call globally reachable, in IPv4, IPv6 and
/// every form that carries an IPv4 address inside an IPv6 one (mapped `::ffff:0:0/96`, translated
/// `::ffff:0:0:0/96`, the deprecated compatible `::/96`, NAT64 `64:ff9b::/96` and its local-use
/// `64:ff9b:1::/48`, which are outside 2000::/3 and refused whatever they wrap).
pub fn is_forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => within(IpAddr::V4(v4), IPV4_NOT_GLOBAL.iter().map(|(b, _)| *b)),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_forbidden(IpAddr::V4(v4));
            }
            let global_unicast = (v6.segments()[0] & 0xe000) == 0x2000;
            !global_unicast
                || (within(ip, IPV6_NOT_GLOBAL.iter().map(|(b, _)| *b))
                    && !within(ip, IPV6_GLOBAL_INSIDE_2001.iter().copied()))
        }
    }
}

/// The ports a webhook may use unless `STATUS_WEBHOOKS_ALLOW_PRIVATE` is on (tests, a private
/// network): the web's usual ones, so a webhook cannot be aimed at a mail or database port of a
/// public host.
pub const WEB_PORTS: [u16; 4] = [80, 443, 8080, 8443];

/// The URL's form: `http` or `https`, a host, no user or password, at most [`MAX_URL_CHARS`]
/// characters. The message says what is wrong in the operator view's words: it names the form's
/// field by its label ("The URL"), as every operator refusal does, never the API's field or the
/// URL parser's own text.
pub fn parse(raw: &str) -> Result<url::Url, String> {
    let raw = raw.trim();
    let count = raw.chars().count();
    if count == 0 || count > MAX_URL_CHARS {
        return Err(format!(
            "The URL must be 1 to {MAX_URL_CHARS} characters (it has {count})."
        ));
    }
    let url = url::Url::parse(raw).map_err(|_| {
        "The URL is not a web address: write it whole, starting with https://.".to_owned()
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err("The URL must start with https:// or http://.".into());
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err("The URL must name a host, as https://hooks.example.com/… does.".into());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("The URL must not hold a user name or password.".into());
    }
    Ok(url)
}

/// Resolves `url`'s host and picks the address to connect to: refused (with the reason) when it
/// does not resolve, or when any address it resolves to is forbidden and `allow_private` is off.
pub async fn vet(url: &url::Url, allow_private: bool) -> Result<Vetted, String> {
    let host = url.host_str().unwrap_or_default().to_owned();
    let port = url.port_or_known_default().unwrap_or(443);
    if !allow_private && !WEB_PORTS.contains(&port) {
        return Err(format!(
            "The URL must use one of the ports {}.",
            WEB_PORTS.map(|p| p.to_string()).join(", ")
        ));
    }
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
        return Err(format!(
            "The URL's host {host} was not found: check how it is spelt."
        ));
    };
    if !allow_private {
        if let Some(bad) = addresses.iter().find(|a| is_forbidden(a.ip())) {
            return Err(format!(
                "The URL's host {host} is at {}, a private or local address: a webhook must \
                 reach a public address.",
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
            // What the registries list and a hand list missed.
            "::ffff:0:a00:1",
            "::ffff:0:808:808",
            "64:ff9b:1::808:808",
            "64:ff9b::808:808",
            "2002:c0a8:101::1",
            "2001:0:4136:e378::1",
            "fec0::1",
            "100::1",
            "192.0.0.8",
            "192.88.99.1",
            "198.18.0.1",
            "198.19.255.255",
            "2001:db8::1",
            "3fff::1",
        ] {
            assert!(is_forbidden(bad.parse().expect("ip")), "{bad}");
        }
        for good in [
            "93.184.216.34",
            "8.8.8.8",
            "2606:4700::1111",
            "::ffff:1.1.1.1",
            "2001:4860:4860::8888",
            "2001:20::1",
        ] {
            assert!(!is_forbidden(good.parse().expect("ip")), "{good}");
        }
    }

    #[test]
    fn refusals_name_the_form_s_url_field_in_plain_words() {
        let refused = |raw: &str| parse(raw).expect_err(raw);
        assert_eq!(
            refused(""),
            "The URL must be 1 to 2000 characters (it has 0)."
        );
        assert_eq!(
            refused("not a url"),
            "The URL is not a web address: write it whole, starting with https://."
        );
        assert_eq!(
            refused("ftp://example.com"),
            "The URL must start with https:// or http://."
        );
        assert_eq!(
            refused("https://user:pw@example.com"),
            "The URL must not hold a user name or password."
        );
        for raw in ["", "not a url", "ftp://x.example", "https://u:p@x.example"] {
            let message = refused(raw);
            assert!(message.starts_with("The URL"), "{message}");
            assert!(!message.contains("url:"), "{message}");
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
    async fn only_the_usual_web_ports_unless_private_addresses_are_allowed() {
        let odd = parse("http://8.8.8.8:25/hook").expect("url");
        let refused = vet(&odd, false).await.expect_err("mail port");
        assert!(refused.contains("ports 80, 443, 8080, 8443"), "{refused}");
        for port in WEB_PORTS {
            let url = parse(&format!("http://8.8.8.8:{port}/")).expect("url");
            assert!(vet(&url, false).await.is_ok(), "{port}");
        }
        assert!(vet(&odd, true).await.is_ok());
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
