//! Who sent a request: the TCP peer, or, when that peer is one of `TRUSTED_PROXIES`, the client the
//! proxy names in `X-Forwarded-For` / `Forwarded`, with the scheme and host it says the client used.
//!
//! Forwarding headers from anyone else are ignored: a client talking to the server directly cannot
//! choose its rate-limit bucket, turn on HSTS or pick the host of the emulator's links.

use std::{
    convert::Infallible,
    net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr},
};

use axum::{
    extract::{ConnectInfo, FromRequestParts},
    http::{request::Parts, HeaderMap, HeaderValue},
};
use ipnet::IpNet;

/// The client a trusted proxy forwarded but named unreadably (a hop of junk or of bytes that are
/// not text where the client should be). Not the proxy's own address: such a client must share
/// neither the proxy's rate-limit bucket nor its loopback privileges. All of them share one bucket.
pub const UNKNOWN_CLIENT: IpAddr = IpAddr::V6(Ipv6Addr::UNSPECIFIED);

/// What the server believes about a request's origin. Put into every request's extensions by the
/// frontline, so the rate limiter, HSTS and the emulator read one answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientInfo {
    /// The TCP peer (the proxy, when there is one).
    pub peer: IpAddr,
    /// The client: the peer, or the address a trusted proxy forwarded ([`UNKNOWN_CLIENT`] when
    /// that address is unreadable).
    pub ip: IpAddr,
    /// A trusted proxy said the client came over TLS (`X-Forwarded-Proto: https`, `proto=https`).
    pub over_tls: bool,
    /// The host (and port) a trusted proxy said the client asked for (`X-Forwarded-Host`, `host=`).
    pub forwarded_host: Option<HeaderValue>,
}

impl ClientInfo {
    /// A request straight from `peer`, with nothing forwarded.
    pub fn direct(peer: IpAddr) -> Self {
        // An IPv4 client of a dual-stack socket shows as `::ffff:a.b.c.d`: it is that IPv4 address.
        let peer = peer.to_canonical();
        Self {
            peer,
            ip: peer,
            over_tls: false,
            forwarded_host: None,
        }
    }
}

/// A handler argument: what the frontline derived (the TCP peer alone when it did not run).
impl<S: Send + Sync> FromRequestParts<S> for ClientInfo {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Infallible> {
        Ok(match parts.extensions.get::<ClientInfo>() {
            Some(client) => client.clone(),
            None => ClientInfo::direct(
                parts
                    .extensions
                    .get::<ConnectInfo<SocketAddr>>()
                    .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |peer| peer.0.ip()),
            ),
        })
    }
}

/// The `TRUSTED_PROXIES` networks (default none: every forwarding header is ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Parses a comma-separated list of CIDRs or single addresses (`10.0.0.0/8, 127.0.0.1, ::1`).
    pub fn parse(raw: &str) -> Result<Self, String> {
        raw.split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(|item| {
                item.parse::<IpNet>()
                    .or_else(|_| item.parse::<IpAddr>().map(IpNet::from))
                    .map(|net| net.trunc())
                    .map_err(|_| format!("'{item}' is not an IP address or CIDR (e.g. 10.0.0.0/8)"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Self)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `ip` is one of the trusted proxies (IPv4-mapped IPv6 counts as IPv4).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// What to believe about a request from `peer` carrying `headers`.
    pub fn client_info(&self, peer: IpAddr, headers: &HeaderMap) -> ClientInfo {
        let peer = peer.to_canonical();
        if !self.contains(peer) {
            return ClientInfo::direct(peer);
        }
        // X-Forwarded-For is what nginx and most proxies append to; `Forwarded` is read only when
        // it is absent (a proxy that appends to one must not pass a client's copy of the other:
        // the template in deploy/ clears `Forwarded`).
        let (hops, proto, host) = if headers.contains_key("x-forwarded-for") {
            (
                hop_texts(headers, "x-forwarded-for")
                    .map(|hop| hop.and_then(parse_node))
                    .collect::<Vec<_>>(),
                last_value(headers, "x-forwarded-proto"),
                last_value(headers, "x-forwarded-host"),
            )
        } else {
            let elements: Vec<Option<&str>> = hop_texts(headers, "forwarded").collect();
            // An unreadable element stands where its `for=` would be: unknown.
            let hops = elements
                .iter()
                .filter_map(|element| match element {
                    Some(element) => pair(element, "for").map(parse_node),
                    None => Some(None),
                })
                .collect();
            // The nearest proxy's element (the last) says how the request reached it.
            let last = elements.last().copied().flatten();
            (
                hops,
                last.and_then(|e: &str| pair(e, "proto"))
                    .or_else(|| last_value(headers, "x-forwarded-proto")),
                last.and_then(|e| pair(e, "host"))
                    .or_else(|| last_value(headers, "x-forwarded-host")),
            )
        };
        ClientInfo {
            peer,
            ip: self.rightmost_untrusted(peer, &hops),
            over_tls: proto.is_some_and(|p| p.eq_ignore_ascii_case("https")),
            forwarded_host: host
                .filter(|h| is_host(h))
                .and_then(|h| HeaderValue::from_str(h).ok()),
        }
    }

    /// The client among `hops` (oldest first): the rightmost address that is not a trusted proxy.
    /// When every hop is trusted, the leftmost; when the hop that names the client is unreadable,
    /// [`UNKNOWN_CLIENT`] (never a proxy's address, which would lend the client its privileges).
    fn rightmost_untrusted(&self, peer: IpAddr, hops: &[Option<IpAddr>]) -> IpAddr {
        let mut client = peer;
        for hop in hops.iter().rev() {
            match hop {
                Some(ip) => {
                    client = *ip;
                    if !self.contains(*ip) {
                        break;
                    }
                }
                None => return UNKNOWN_CLIENT,
            }
        }
        client
    }
}

/// Every comma-separated value of every `name` header, in order.
fn values<'a>(headers: &'a HeaderMap, name: &str) -> impl Iterator<Item = &'a str> {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

/// Every comma-separated value of every `name` header, in order, read from the raw bytes: a value
/// that is not text is `None` in its place, and the readable ones around it still count (a client's
/// junk before the address its proxy appended does not hide that address).
fn hop_texts<'a>(headers: &'a HeaderMap, name: &str) -> impl Iterator<Item = Option<&'a str>> {
    headers
        .get_all(name)
        .iter()
        .flat_map(|v| v.as_bytes().split(|b| *b == b','))
        .map(|raw| std::str::from_utf8(raw).ok().map(str::trim))
        .filter(|hop| hop.is_none_or(|text| !text.is_empty()))
}

/// The last value of a possibly repeated, comma-separated header: the one the nearest proxy set.
fn last_value<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    values(headers, name).last()
}

/// The value of `key` in one `Forwarded` element (`for=1.2.3.4;proto=https`), unquoted.
fn pair<'a>(element: &'a str, key: &str) -> Option<&'a str> {
    element.split(';').find_map(|part| {
        let (k, v) = part.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case(key)
            .then(|| v.trim().trim_matches('"'))
    })
}

/// An address as proxies write it: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`, `[2001:db8::1]:80`.
fn parse_node(node: &str) -> Option<IpAddr> {
    let node = node.trim().trim_matches('"');
    node.parse::<IpAddr>()
        .ok()
        .or_else(|| node.parse::<SocketAddr>().ok().map(|s| s.ip()))
        .or_else(|| {
            node.strip_prefix('[')
                .and_then(|rest| rest.split_once(']'))
                .and_then(|(ip, _)| ip.parse().ok())
        })
        .map(|ip: IpAddr| ip.to_canonical())
}

/// A plausible `host[:port]`: letters, digits, `.-:[]`, at most 255 characters.
fn is_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    /// What the proxies listed in `proxies` trusted make of `sent` from a peer at `peer`.
    fn read(proxies: &str, peer: &str, sent: &[(&'static str, &'static str)]) -> ClientInfo {
        let trusted = TrustedProxies::parse(proxies).expect("valid");
        trusted.client_info(ip(peer), &headers(sent))
    }

    /// The client's address as `trusted` reads it from what a proxy on 127.0.0.1 sent.
    fn via_loopback(trusted: &TrustedProxies, sent: &HeaderMap) -> IpAddr {
        trusted.client_info(ip("127.0.0.1"), sent).ip
    }

    #[test]
    fn forwarding_headers_from_an_untrusted_peer_are_ignored() {
        let sent = [
            ("x-forwarded-for", "1.2.3.4"),
            ("x-forwarded-proto", "https"),
            ("x-forwarded-host", "evil.example"),
            ("forwarded", "for=5.6.7.8;proto=https"),
        ];
        let info = read("10.0.0.0/8", "203.0.113.9", &sent);
        assert_eq!(info, ClientInfo::direct(ip("203.0.113.9")));
        // With no trusted proxies at all, the same holds for every peer.
        let none = TrustedProxies::default();
        assert_eq!(
            none.client_info(ip("10.0.0.1"), &headers(&sent)),
            ClientInfo::direct(ip("10.0.0.1"))
        );
    }

    #[test]
    fn the_client_is_the_rightmost_address_that_is_not_a_trusted_proxy() {
        let trusted = TrustedProxies::parse("10.0.0.0/8, 127.0.0.1").expect("valid");
        // The client wrote "6.6.6.6" itself; nginx appended the real address, then an inner proxy.
        let sent = [
            ("x-forwarded-for", "6.6.6.6, 198.51.100.7"),
            ("x-forwarded-for", "10.1.2.3"),
            ("x-forwarded-proto", "https"),
            ("x-forwarded-host", "mg.example.com"),
        ];
        let info = trusted.client_info(ip("127.0.0.1"), &headers(&sent));
        assert_eq!(info.ip, ip("198.51.100.7"));
        assert!(info.over_tls);
        assert_eq!(
            info.forwarded_host,
            Some(HeaderValue::from_static("mg.example.com"))
        );
        // Every hop trusted: the leftmost is the client.
        let inside = headers(&[("x-forwarded-for", "10.9.9.9, 10.1.1.1")]);
        assert_eq!(via_loopback(&trusted, &inside), ip("10.9.9.9"));
        // An unreadable hop where the client should be: unknown, not the proxy before it.
        let junk = headers(&[("x-forwarded-for", "198.51.100.7, unknown, 10.1.1.1")]);
        assert_eq!(via_loopback(&trusted, &junk), UNKNOWN_CLIENT);
    }

    #[test]
    fn bytes_that_are_not_text_in_a_forwarding_header_never_make_the_client_the_proxy() {
        // Before: one byte that is not text made the whole header unreadable, and the client
        // counted as the proxy itself (its rate-limit bucket, its loopback privileges).
        let trusted = TrustedProxies::parse("127.0.0.1").expect("valid");
        let sent = |name: &'static str, bytes: &[u8]| {
            let mut sent = HeaderMap::new();
            let value = HeaderValue::from_bytes(bytes).expect("obs-text is a valid value");
            sent.append(name, value);
            via_loopback(&trusted, &sent)
        };
        let client = sent("x-forwarded-for", b"\xff\xfe");
        assert_eq!(client, UNKNOWN_CLIENT);
        assert!(!client.is_loopback());
        // The junk a client wrote before the address nginx appended: that address is the client.
        assert_eq!(
            sent("x-forwarded-for", b"\xff, 198.51.100.7"),
            ip("198.51.100.7")
        );
        // The same through `Forwarded`.
        assert_eq!(sent("forwarded", b"for=\xff"), UNKNOWN_CLIENT);
    }

    #[test]
    fn forwarded_is_read_when_there_is_no_x_forwarded_for() {
        let sent = [(
            "forwarded",
            r#"for="[2001:db8::7]:4711";proto=http, for=127.0.0.5;proto=https;host=mg.example.com"#,
        )];
        let info = read("::1, 127.0.0.0/8", "::1", &sent);
        assert_eq!(info.ip, ip("2001:db8::7"));
        assert!(info.over_tls);
        assert_eq!(
            info.forwarded_host,
            Some(HeaderValue::from_static("mg.example.com"))
        );
    }

    #[test]
    fn ports_mapped_addresses_and_bad_hosts_are_handled() {
        let sent = [
            ("x-forwarded-for", "198.51.100.7:5555"),
            ("x-forwarded-host", "a b<script>"),
        ];
        let info = read("127.0.0.1", "::ffff:127.0.0.1", &sent);
        assert_eq!(info.peer, ip("127.0.0.1"));
        assert_eq!(info.ip, ip("198.51.100.7"));
        assert_eq!(info.forwarded_host, None);
        assert!(!info.over_tls);
    }

    #[test]
    fn trusted_proxies_parse_cidrs_and_addresses_and_refuse_junk() {
        let trusted = TrustedProxies::parse(" 10.0.0.0/8 ,192.168.1.1, fd00::/8,").expect("valid");
        assert!(trusted.contains(ip("10.200.0.1")));
        assert!(trusted.contains(ip("192.168.1.1")));
        assert!(!trusted.contains(ip("192.168.1.2")));
        assert!(trusted.contains(ip("fd12::1")));
        assert!(TrustedProxies::parse("").expect("empty").is_empty());
        let error = TrustedProxies::parse("10.0.0.0/33").expect_err("bad prefix");
        assert!(error.contains("'10.0.0.0/33'"), "{error}");
        assert!(TrustedProxies::parse("localhost").is_err());
    }
}
