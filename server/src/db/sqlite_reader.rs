//! SQLite only: read-only connections for the hot path's point read (`find_user_with_sessions`),
//! used inline on the calling task instead of through the pool.
//!
//! sqlx runs every SQLite statement on a connection's own worker thread and hands the statement and
//! each row across threads; for a one-row read that hand-off costs more than the read itself and
//! held `current-user` to a third of docs/quality.md's bar (benches/load.sh). In WAL mode a reader
//! never waits for the writer, so an indexed one-row read takes microseconds; the short busy
//! timeout bounds the rare wait (WAL recovery after a crash), and any error sends the caller back
//! to the pool, which has the full busy timeout and the usual error handling.

use std::{path::PathBuf, sync::Mutex, time::Duration};

use rusqlite::{Connection, OpenFlags, OptionalExtension};

use super::users::{UserRow, UserWithSessions};

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
        let path = super::sqlite_path(url)?;
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

    fn with_connection<T>(
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

    /// The same read as the pool's `find_user_with_sessions`, on a reader connection.
    pub fn find_user_with_sessions(
        &self,
        sql: &str,
        identity_id: &str,
        now_ms: i64,
    ) -> rusqlite::Result<Option<UserWithSessions>> {
        self.with_connection(|connection| {
            let mut statement = connection.prepare_cached(sql)?;
            statement
                // By name: SQLite numbers `$N` parameters in order of first appearance, and `$2`
                // comes first in this statement.
                .query_row(
                    rusqlite::named_params! {"$1": identity_id, "$2": now_ms},
                    |row| {
                        Ok(UserWithSessions {
                            user: UserRow {
                                identity_id: row.get(0)?,
                                email: row.get(1)?,
                                name: row.get(2)?,
                                login_provider: row.get(3)?,
                                provider_profile: row.get(4)?,
                                created_at: row.get(5)?,
                                updated_at: row.get(6)?,
                            },
                            active_sessions: row.get(7)?,
                        })
                    },
                )
                .optional()
        })
    }
}
