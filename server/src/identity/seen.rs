//! Which sessions this instance has recently recorded, so the hot path skips a write per request,
//! and when it last pruned expired sessions from the database.

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicI64, Ordering},
        Mutex,
    },
};

/// Entries beyond this are dropped (stale first, then all): forgetting only costs one idempotent write.
const CAPACITY: usize = 50_000;
/// Expired sessions are deleted at most this often per instance (on a write, not on a timer).
pub const PRUNE_EVERY_MS: i64 = 60_000;

/// Session keys with the time (unix ms) until which they need no new write. Losing an entry is
/// harmless: recording is idempotent.
#[derive(Debug, Default)]
pub struct SeenSessions {
    entries: Mutex<HashMap<String, i64>>,
    last_prune_ms: AtomicI64,
}

impl SeenSessions {
    pub fn contains(&self, key: &str, now_ms: i64) -> bool {
        self.entries
            .lock()
            .map(|entries| entries.get(key).is_some_and(|&until| until > now_ms))
            .unwrap_or(false)
    }

    pub fn insert(&self, key: String, fresh_until_ms: i64, now_ms: i64) {
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= CAPACITY {
                entries.retain(|_, &mut until| until > now_ms);
                if entries.len() >= CAPACITY {
                    entries.clear();
                }
            }
            entries.insert(key, fresh_until_ms);
        }
    }

    /// Forgets a session (logout), so this instance writes it again if it is ever used again.
    pub fn remove(&self, key: &str) {
        if let Ok(mut entries) = self.entries.lock() {
            entries.remove(key);
        }
    }

    /// True at most once per `PRUNE_EVERY_MS`: the caller then prunes expired sessions.
    pub fn prune_due(&self, now_ms: i64) -> bool {
        let last = self.last_prune_ms.load(Ordering::Relaxed);
        now_ms - last >= PRUNE_EVERY_MS
            && self
                .last_prune_ms
                .compare_exchange(last, now_ms, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::{SeenSessions, PRUNE_EVERY_MS};

    #[test]
    fn pruning_comes_due_once_per_interval() {
        let seen = SeenSessions::default();
        let start = 10 * PRUNE_EVERY_MS;
        assert!(seen.prune_due(start));
        assert!(!seen.prune_due(start + 1));
        assert!(seen.prune_due(start + PRUNE_EVERY_MS));
    }
}
