//! Open connections counted per client address and per client network, so neither one address nor
//! a block of addresses can hold every slot of `MAX_CONNECTIONS`.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{Arc, Mutex, PoisonError},
};

use crate::{forwarded::TrustedProxies, rate_limit::ClientKey};

/// The network a client address belongs to for the per-network cap: an IPv4 /24 or an IPv6 /48.
/// One host, one small office or one cloud tenant usually holds many addresses of one such block
/// (an IPv6 site is usually given a /48), so a cap per address alone lets it hold the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum NetworkKey {
    V4(u32),
    V6(u64),
}

impl From<IpAddr> for NetworkKey {
    fn from(ip: IpAddr) -> Self {
        match ip.to_canonical() {
            IpAddr::V4(v4) => Self::V4(u32::from(v4) >> 8),
            IpAddr::V6(v6) => Self::V6((u128::from(v6) >> 80) as u64),
        }
    }
}

/// What a count is kept under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Holder {
    /// An address (an IPv6 /64), capped at `MAX_CONNECTIONS_PER_CLIENT`.
    Client(ClientKey),
    /// An IPv4 /24 or IPv6 /48, capped at `MAX_CONNECTIONS_PER_NETWORK`.
    Network(NetworkKey),
}

/// Open connections per client address and per client network. The map holds only holders with
/// an open connection, two entries per connection at most, so it is bounded by the connection cap.
#[derive(Debug)]
pub(super) struct Slots {
    per_client: usize,
    per_network: usize,
    /// Proxies multiplex many clients over their connections: they count only against the total.
    exempt: TrustedProxies,
    open: Mutex<HashMap<Holder, usize>>,
}

/// One connection's place in [`Slots`], given back when dropped.
pub(super) struct Slot {
    owner: Arc<Slots>,
    holders: [Holder; 2],
}

impl Slots {
    pub(super) fn new(per_client: usize, per_network: usize, exempt: TrustedProxies) -> Self {
        Self {
            per_client,
            per_network,
            exempt,
            open: Mutex::new(HashMap::new()),
        }
    }

    /// `None` when the client at `ip`, or its network, holds its most connections already; else
    /// its slot, which is `Some(None)` for a trusted proxy (counted only against the total).
    pub(super) fn claim(this: &Arc<Self>, ip: IpAddr) -> Option<Option<Slot>> {
        if this.exempt.contains(ip) {
            return Some(None);
        }
        let client = Holder::Client(ClientKey::from(ip));
        let network = Holder::Network(NetworkKey::from(ip));
        let mut open = this.open.lock().unwrap_or_else(PoisonError::into_inner);
        let held = |holder| open.get(&holder).copied().unwrap_or(0);
        if held(client) >= this.per_client || held(network) >= this.per_network {
            return None;
        }
        for holder in [client, network] {
            *open.entry(holder).or_insert(0) += 1;
        }
        Some(Some(Slot {
            owner: this.clone(),
            holders: [client, network],
        }))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self
            .owner
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for holder in &self.holders {
            if let Some(count) = open.get_mut(holder) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    open.remove(holder);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots(per_client: usize, per_network: usize, exempt: &str) -> Arc<Slots> {
        Arc::new(Slots::new(
            per_client,
            per_network,
            TrustedProxies::parse(exempt).expect("valid"),
        ))
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn an_address_holds_at_most_its_cap_and_gets_a_slot_back_when_one_closes() {
        let slots = slots(2, 10, "");
        let first = Slots::claim(&slots, ip("192.0.2.1")).expect("first");
        let _second = Slots::claim(&slots, ip("192.0.2.1")).expect("second");
        assert!(Slots::claim(&slots, ip("192.0.2.1")).is_none());
        assert!(Slots::claim(&slots, ip("192.0.2.2")).is_some());
        drop(first);
        assert!(Slots::claim(&slots, ip("192.0.2.1")).is_some());
    }

    #[test]
    fn the_addresses_of_one_ipv4_24_share_the_network_cap() {
        let slots = slots(2, 5, "");
        let mut held = Vec::new();
        for last in 1..=3u8 {
            for _ in 0..2 {
                if let Some(slot) = Slots::claim(&slots, IpAddr::from([198, 51, 100, last])) {
                    held.push(slot);
                }
            }
        }
        assert_eq!(held.len(), 5);
        assert!(Slots::claim(&slots, ip("198.51.100.200")).is_none());
        // The next /24 is another network.
        assert!(Slots::claim(&slots, ip("198.51.101.1")).is_some());
        held.pop();
        assert!(Slots::claim(&slots, ip("198.51.100.200")).is_some());
        // Nothing is left behind once every connection closed.
        drop(held);
        assert!(slots.open.lock().expect("lock").is_empty());
    }

    #[test]
    fn ipv6_counts_per_64_and_per_48_and_mapped_ipv4_counts_as_ipv4() {
        let slots = slots(1, 2, "");
        let _a = Slots::claim(&slots, ip("2001:db8:1:1::1")).expect("a");
        // The same /64.
        assert!(Slots::claim(&slots, ip("2001:db8:1:1::2")).is_none());
        // Another /64 of the same /48: the second and last of the network.
        let _b = Slots::claim(&slots, ip("2001:db8:1:2::1")).expect("b");
        assert!(Slots::claim(&slots, ip("2001:db8:1:3::1")).is_none());
        // Another /48.
        assert!(Slots::claim(&slots, ip("2001:db8:2::1")).is_some());
        let _v4 = Slots::claim(&slots, ip("203.0.113.9")).expect("v4");
        assert!(Slots::claim(&slots, ip("::ffff:203.0.113.9")).is_none());
    }

    #[test]
    fn trusted_proxies_are_not_counted_per_address_or_network() {
        let slots = slots(1, 1, "10.0.0.1");
        let mut held = Vec::new();
        for _ in 0..10 {
            held.push(Slots::claim(&slots, ip("10.0.0.1")).expect("a proxy is never refused"));
        }
        assert!(held.iter().all(Option::is_none));
        // Its neighbours are counted as usual.
        let _neighbour = Slots::claim(&slots, ip("10.0.0.2")).expect("neighbour");
        assert!(Slots::claim(&slots, ip("10.0.0.3")).is_none());
    }
}
