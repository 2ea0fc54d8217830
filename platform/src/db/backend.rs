//! Which database engine a connection is on: the one thing the pool, the migrations and the
//! queries that differ between engines all ask.

/// Which engine a URL points at; `/db-health` names it as `Backend::name` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "DatabaseName"))]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of_url(url: &str) -> Self {
        if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else {
            Backend::Postgres
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}
