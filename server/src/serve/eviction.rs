//! At the connection cap, the connection doing least gives way to a newcomer: the one whose last
//! request made progress longest ago (an idle keep-alive, a half-sent head), never one whose
//! request a handler is working on. So clients that hold the table by sending a request now and
//! then, each connection under the idle timeout, cannot keep a new client waiting in the listen
//! backlog: each newcomer costs them their stalest connection.

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicU64, Ordering::Relaxed},
        Arc, Mutex, PoisonError,
    },
};

use super::progress::Progress;

/// The open connections' progress, by a number of their own.
#[derive(Debug, Default)]
pub(super) struct Open {
    next: AtomicU64,
    connections: Mutex<HashMap<u64, Arc<Progress>>>,
}

/// A connection's entry in [`Open`], removed when dropped.
pub(super) struct Registered {
    open: Arc<Open>,
    id: u64,
}

impl Open {
    pub(super) fn register(this: &Arc<Self>, progress: Arc<Progress>) -> Registered {
        let id = this.next.fetch_add(1, Relaxed);
        this.connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, progress);
        Registered {
            open: this.clone(),
            id,
        }
    }

    /// Asks the connection idle the longest (no handler at work) to close; whether there was one.
    /// One look over the open connections: done only when every slot is taken.
    pub(super) fn evict_idlest(&self) -> bool {
        let connections = self
            .connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let idlest = connections
            .values()
            .filter_map(|progress| progress.idle_since().map(|since| (since, progress)))
            .min_by_key(|(since, _)| *since);
        match idlest {
            Some((_, progress)) => {
                progress.give_way();
                true
            }
            None => false,
        }
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.open
            .connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.id);
    }
}
