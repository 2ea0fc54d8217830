//! SQLite only: read-only connections for the hot path's point read (`find_user_with_sessions`,
//! users.rs), used inline on the calling task instead of through the pool.
//!
//! sqlx runs every SQLite statement on a connection's own worker thread and hands the statement and
//! each row across threads; for a one-row read that hand-off costs more than the read itself and
//! held `current-user` to a third of docs/quality.md's bar (benches/load.sh). In WAL mode a reader
//! never waits for the writer, so an indexed one-row read takes microseconds; the short busy
//! timeout bounds the rare wait (WAL recovery after a crash), and any error sends the caller back
//! to the pool, which has the full busy timeout and the usual error handling.

use std::{path::PathBuf, sync::Mutex, time::Duration};

use rusqlite::{Connection, OpenFlags};

use super::files::sqlite_path;

/// Idle read connections kept for reuse (one per runtime worker is enough; a few spare).
const MAX_IDLE: usize = 8;
/// How long a read may wait on a lock before the pool takes over.
const BUSY_TIMEOUT: Duration = Duration::from_millis(100);

/// Read-only connections to one SQLite file, opened on demand and reused.
#[derive(Debug)]
pub struct SqliteReader {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

impl SqliteReader {
    /// A reader for the file of `url` (`sqlite://path?...`); `None` for an in-memory database,
    /// whose every connection would be a different, empty database.
    pub fn for_url(url: &str) -> Option<Self> {
        let path = sqlite_path(url)?;
        Some(Self {
            path: PathBuf::from(path),
            idle: Mutex::new(Vec::new()),
        })
    }

    fn open(&self) -> rusqlite::Result<Connection> {
        let connection = Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        connection.busy_timeout(BUSY_TIMEOUT)?;
        Ok(connection)
    }

    /// Runs `read` on an idle connection (or a new one); the connection is kept for reuse unless
    /// the read failed.
    pub fn with_connection<T>(
        &self,
        read: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        let reused = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        let connection = match reused {
            Some(connection) => connection,
            None => self.open()?,
        };
        let result = read(&connection);
        // A connection that failed is dropped rather than reused.
        if result.is_ok() {
            if let Ok(mut idle) = self.idle.lock() {
                if idle.len() < MAX_IDLE {
                    idle.push(connection);
                }
            }
        }
        result
    }
}
