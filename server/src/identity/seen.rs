//! Which session tokens this instance has already recorded, so the hot path skips a write per request.

use std::{collections::HashMap, sync::Mutex};

/// Entries beyond this are dropped (expired first, then all): forgetting only costs one idempotent write.
const CAPACITY: usize = 50_000;

/// Token hashes with their expiry (unix ms). Losing an entry is harmless: recording is idempotent.
#[derive(Debug, Default)]
pub struct SeenSessions {
    entries: Mutex<HashMap<String, i64>>,
}

impl SeenSessions {
    pub fn contains(&self, token_hash: &str, now_ms: i64) -> bool {
        self.entries
            .lock()
            .map(|entries| entries.get(token_hash).is_some_and(|&exp| exp > now_ms))
            .unwrap_or(false)
    }

    pub fn insert(&self, token_hash: String, expires_at_ms: i64, now_ms: i64) {
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= CAPACITY {
                entries.retain(|_, &mut exp| exp > now_ms);
                if entries.len() >= CAPACITY {
                    entries.clear();
                }
            }
            entries.insert(token_hash, expires_at_ms);
        }
    }
}
