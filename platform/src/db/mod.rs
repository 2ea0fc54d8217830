//! The database: one pool and one set of queries over SQLite (embedded default) or PostgreSQL.
//! Queries use `$1` placeholders, which the Any driver passes to both engines.

pub mod account;
mod backend;
pub mod files;
mod migrate;
#[cfg(test)]
mod migration_checksums;
pub mod params;
#[doc(hidden)]
pub mod plans;
pub mod probe;
pub mod prune;
pub mod revocations;
#[doc(hidden)]
pub mod scale;
#[doc(hidden)]
pub mod seed;
pub mod sessions;
pub mod sqlite_reader;
#[doc(hidden)]
pub mod testing;
pub mod users;
pub mod wisdom;
#[cfg(test)]
mod write_guard;

use std::{path::Path, sync::Arc, time::Duration};

pub use self::{backend::Backend, migrate::REWRITTEN_MIGRATIONS};
use self::{
    files::{sqlite_parent_dir, sqlite_path},
    probe::{Probe, ProbeFailure},
    sqlite_reader::SqliteReader,
};
use sqlx::{
    any::{install_default_drivers, Any, AnyArguments, AnyPoolOptions, AnyRow},
    query::QueryAs,
    AnyPool, Executor, FromRow,
};

/// How long each step of the readiness probe (`/db-health`, the status checks; `probe.rs`) waits
/// for the database before calling it unhealthy.
pub const PING_LIMIT: Duration = Duration::from_secs(1);

/// A connection pool plus the backend it talks to. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Database {
    pool: AnyPool,
    backend: Backend,
    /// SQLite files only: the hot path's inline reader (see `sqlite_reader`).
    sqlite_reader: Option<Arc<SqliteReader>>,
    /// The readiness probe's last write answer, shared by every clone (see `probe`).
    probe: Arc<Probe>,
}

impl Database {
    /// Connects (creating the SQLite file and its directory if needed) and runs the migrations.
    /// `max_connections` overrides the default pool size (8 on SQLite, 16 on PostgreSQL).
    pub async fn connect(url: &str, max_connections: Option<u32>) -> anyhow::Result<Self> {
        install_default_drivers();
        let backend = Backend::of_url(url);
        if backend == Backend::Sqlite {
            if let Some(dir) = sqlite_parent_dir(url) {
                if !dir.exists() {
                    files::private_dir(dir)?;
                }
            }
            if let Some(path) = sqlite_path(url) {
                files::private_sqlite_files(Path::new(path))?;
            }
        }
        let pool = AnyPoolOptions::new()
            .max_connections(max_connections.unwrap_or(match backend {
                Backend::Sqlite => 8,
                Backend::Postgres => 16,
            }))
            .acquire_timeout(Duration::from_secs(3))
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers run beside the writer; the busy timeout queues writers
                        // instead of failing them. FULL syncs the WAL at every commit, so an
                        // acknowledged write survives a power loss too (NORMAL only survives a
                        // crash of the process); the cost is measured in docs/performance.md.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA busy_timeout = 5000").await?;
                        conn.execute("PRAGMA synchronous = FULL").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await
            .map_err(|error| {
                anyhow::anyhow!(
                    "cannot open the {} database ({}): {error}; check DATABASE_URL and that the \
                     database is running",
                    backend.name(),
                    redacted(url)
                )
            })?;
        migrate::run(&pool, backend).await?;
        let sqlite_reader = match backend {
            Backend::Sqlite => SqliteReader::for_url(url).map(Arc::new),
            Backend::Postgres => None,
        };
        let database = Self {
            pool,
            backend,
            sqlite_reader,
            probe: Arc::default(),
        };
        database.seed_wisdom().await?;
        Ok(database)
    }

    fn sqlite_reader(&self) -> Option<&SqliteReader> {
        self.sqlite_reader.as_deref()
    }

    /// Ages the readiness probe's answers by `clock` (the server's `Config::clock`); before any
    /// clone is made, as the probe's memory is every clone's.
    pub fn with_clock(mut self, clock: crate::time::Clock) -> Self {
        self.probe = Arc::new(Probe::with_clock(clock));
        self
    }

    /// `/db-health`'s probe: a read, then a committed write (the write's answer given again to
    /// callers within a second); see `probe`.
    pub async fn probe(&self, limit: Duration) -> Result<(), ProbeFailure> {
        self.probe.run(&self.pool, limit).await
    }

    /// The status checks' probe: the read and the write, the write always made; see `probe`.
    pub async fn probe_now(&self, limit: Duration) -> Result<(), ProbeFailure> {
        self.probe.run_now(&self.pool, limit).await
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Runs one writing statement that returns a row (`INSERT/UPDATE ... RETURNING`) to its end
    /// before handing the row out. Every such statement goes through here. Read with `fetch_one`,
    /// SQLite gives the row out at the first step and commits the autocommit statement only when
    /// it is reset, where sqlx drops the error: a failed commit (a full disk, an I/O error) would
    /// answer with a row that was never stored. Stepped to its end, the statement commits inside
    /// the call, a failed commit is the call's error, and SQLite rolls the statement back (an
    /// explicit transaction whose `COMMIT` fails with a full disk stays open instead, holding the
    /// write lock until something rolls it back). PostgreSQL likewise reports the commit of an
    /// implicit transaction before the statement's end.
    pub async fn commit_returning<'q, T>(
        &self,
        statement: QueryAs<'q, Any, T, AnyArguments<'q>>,
    ) -> Result<T, sqlx::Error>
    where
        T: for<'r> FromRow<'r, AnyRow> + Send + Unpin,
    {
        statement
            .fetch_all(self.pool())
            .await?
            .into_iter()
            .next()
            .ok_or(sqlx::Error::RowNotFound)
    }

    /// [`Self::commit_returning`] for a statement whose condition counts rows of the table it
    /// writes (a cap: "insert while fewer than N are open"), so that concurrent writers cannot
    /// all pass it. SQLite runs one writer at a time, and a statement that read an older state
    /// than the last commit fails rather than writes, so the statement alone is enough. On
    /// PostgreSQL two such statements would each count without the other's row: there it runs
    /// in a transaction that first takes the advisory lock named `lock`, so writers under one
    /// cap go one at a time (the lock ends with the transaction, and a failed `COMMIT` is the
    /// call's error).
    pub async fn commit_returning_capped<'q, T>(
        &self,
        lock: &str,
        statement: QueryAs<'q, Any, T, AnyArguments<'q>>,
    ) -> Result<T, sqlx::Error>
    where
        T: for<'r> FromRow<'r, AnyRow> + Send + Unpin,
    {
        if self.backend == Backend::Sqlite {
            return self.commit_returning(statement).await;
        }
        let mut transaction = self.pool.begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(lock)
            .execute(&mut *transaction)
            .await?;
        let row = statement
            .fetch_all(&mut *transaction)
            .await?
            .into_iter()
            .next();
        transaction.commit().await?;
        row.ok_or(sqlx::Error::RowNotFound)
    }

    /// [`Self::commit_returning`] for a statement that writes and returns any number of rows:
    /// every row, read only after the statement ran to its end (and committed).
    pub async fn commit_returning_all<'q, T>(
        &self,
        statement: QueryAs<'q, Any, T, AnyArguments<'q>>,
    ) -> Result<Vec<T>, sqlx::Error>
    where
        T: for<'r> FromRow<'r, AnyRow> + Send + Unpin,
    {
        statement.fetch_all(self.pool()).await
    }
}

/// `.optional()` on a write's result: no row (`RowNotFound`: the statement's condition refused
/// the write, or found nothing to change) is `Ok(None)` rather than an error.
pub trait OptionalRow<T> {
    fn optional(self) -> Result<Option<T>, sqlx::Error>;
}

impl<T> OptionalRow<T> for Result<T, sqlx::Error> {
    fn optional(self) -> Result<Option<T>, sqlx::Error> {
        match self {
            Ok(row) => Ok(Some(row)),
            Err(sqlx::Error::RowNotFound) => Ok(None),
            Err(error) => Err(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{
        testing::{test_database, test_touch},
        *,
    };

    /// The inline reader must read exactly what the pool reads; a wrong answer would not show in
    /// the API tests, because the handler falls back to the pool when the reader finds nothing.
    #[tokio::test]
    async fn the_sqlite_reader_finds_the_user_and_counts_only_unexpired_sessions() {
        let (_dir, db) = test_database().await;
        db.find_or_create_user("user-1", Some("ada@example.com"), 1_000)
            .await
            .expect("user");
        test_touch(&db, "user-1", "live", 10_000, 1_000).await;
        test_touch(&db, "user-1", "expired", 2_000, 1_000).await;
        let reader = db.sqlite_reader().expect("a file database has a reader");
        let found = reader
            .with_connection(|c| users::read_user_with_sessions(c, "user-1", 5_000))
            .expect("read")
            .expect("the user is found");
        assert_eq!(found.user.email.as_deref(), Some("ada@example.com"));
        assert_eq!(found.user.created_at, 1_000);
        assert_eq!(found.active_sessions, 1);
        let pooled = db
            .find_user_with_sessions("user-1", 5_000)
            .await
            .expect("read")
            .expect("found");
        assert_eq!(pooled.active_sessions, found.active_sessions);
        assert!(reader
            .with_connection(|c| users::read_user_with_sessions(c, "nobody", 5_000))
            .expect("read")
            .is_none());
    }

    /// A commit that fails after the statement produced its row: a deferred foreign key is checked
    /// at the commit, which for an autocommit statement is its end, after the row came out (as a
    /// full disk fails a commit). Read with `fetch_one`, sqlx would hand the row out and drop the
    /// commit's error in the statement's reset; `commit_returning` must give the error and store
    /// nothing.
    #[tokio::test]
    async fn a_commit_that_fails_after_the_row_came_out_is_an_error_and_stores_nothing() {
        let (_dir, db) = test_database().await;
        sqlx::query(
            "CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (id INTEGER \
             PRIMARY KEY, parent_id INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)",
        )
        .execute(db.pool())
        .await
        .expect("tables");
        let orphan =
            sqlx::query_as::<_, (i64,)>("INSERT INTO child (parent_id) VALUES (42) RETURNING id");
        let outcome = db.commit_returning(orphan).await;
        assert!(outcome.is_err(), "the failed commit is the call's error");
        let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM child")
            .fetch_one(db.pool())
            .await
            .expect("count");
        assert_eq!(stored, 0);
        sqlx::query("INSERT INTO parent (id) VALUES (42)")
            .execute(db.pool())
            .await
            .expect("parent");
        let kept =
            sqlx::query_as::<_, (i64,)>("INSERT INTO child (parent_id) VALUES (42) RETURNING id");
        assert_eq!(db.commit_returning(kept).await.expect("stored").0, 1);
    }

    #[test]
    fn the_sqlite_directory_is_found_in_relative_and_absolute_urls() {
        assert_eq!(
            sqlite_parent_dir("sqlite://data/mg.db?mode=rwc"),
            Some(Path::new("data"))
        );
        assert_eq!(
            sqlite_parent_dir("sqlite:///var/lib/mg/mg.db"),
            Some(Path::new("/var/lib/mg"))
        );
        assert_eq!(sqlite_parent_dir("sqlite::memory:"), None);
        assert_eq!(
            sqlite_path("sqlite://data/mg.db?mode=rwc"),
            Some("data/mg.db")
        );
        assert_eq!(sqlite_path("sqlite::memory:"), None);
        assert_eq!(
            sqlite_path("sqlite://shared?mode=memory&cache=shared"),
            None
        );
        assert_eq!(sqlite_parent_dir("sqlite://mg.db"), None);
    }

    #[test]
    fn a_backend_serialises_as_its_name() {
        for backend in [Backend::Sqlite, Backend::Postgres] {
            assert_eq!(
                serde_json::to_value(backend).expect("JSON"),
                backend.name(),
                "{backend:?}"
            );
        }
    }

    #[test]
    fn backends_are_told_apart_by_scheme() {
        assert_eq!(Backend::of_url("sqlite://x"), Backend::Sqlite);
        assert_eq!(Backend::of_url("postgres://u@h/db"), Backend::Postgres);
        assert_eq!(Backend::of_url("postgresql://u@h/db"), Backend::Postgres);
    }
}

/// `url` without its password, for messages people and logs read.
fn redacted(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod redaction {
    #[test]
    fn a_database_password_never_reaches_a_message() {
        assert_eq!(
            super::redacted("postgres://mg:s3cret@db.example:5432/mg"),
            "postgres://mg:***@db.example:5432/mg"
        );
        assert_eq!(
            super::redacted("sqlite://data/mg.db?mode=rwc"),
            "sqlite://data/mg.db?mode=rwc"
        );
    }
}
