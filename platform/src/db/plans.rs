//! How the database runs a statement, for the query-plan tests (of this crate and of the crates
//! above it): SQLite's `EXPLAIN QUERY PLAN` or PostgreSQL's `EXPLAIN`, and which tables the plan
//! reads whole. No build of the server calls it.
//!
//! A statement is explained with example arguments written into it as SQL literals (`$1` becomes
//! `'user-7'`): PostgreSQL plans a statement for the values it is given (sqlx's prepared
//! statements are planned for their arguments at first), and a placeholder without a value would
//! be planned as NULL, which folds comparisons away and hides the scan.

use sqlx::Row;

use super::{
    prune::{PerEngine, PRUNE_BATCH},
    Backend, Database,
};

/// A statement as the code runs it, with example arguments (SQL literals, `$1` first).
#[derive(Debug, Clone, Copy)]
pub struct Planned {
    /// The constant's name (or, for a trigger's statement, the trigger's).
    pub name: &'static str,
    /// The statement on SQLite and on PostgreSQL (the same text, or a
    /// [`PerEngine`](super::prune::PerEngine)'s two).
    pub sqlite: &'static str,
    pub postgres: &'static str,
    pub args: &'static [&'static str],
}

/// A trigger's statement, the same on both engines (`name` the trigger's).
pub const fn trigger(
    name: &'static str,
    sql: &'static str,
    args: &'static [&'static str],
) -> Planned {
    Planned {
        name,
        sqlite: sql,
        postgres: sql,
        args,
    }
}

/// `Planned` statements from constants: `planned![module::NAME["'arg'", "2"], ...]` for a
/// statement both engines run as written, `planned![per_engine module::NAME[...], ...]` for
/// [`PerEngine`](crate::db::prune::PerEngine) ones.
#[macro_export]
macro_rules! planned {
    (per_engine $($module:ident::$name:ident [$($arg:literal),*]),* $(,)?) => {
        &[$($crate::db::plans::Planned {
            name: stringify!($name),
            sqlite: $module::$name.sqlite,
            postgres: $module::$name.postgres,
            args: &[$($arg),*],
        }),*]
    };
    ($($module:ident::$name:ident [$($arg:literal),*]),* $(,)?) => {
        &[$($crate::db::plans::Planned {
            name: stringify!($name),
            sqlite: $module::$name,
            postgres: $module::$name,
            args: &[$($arg),*],
        }),*]
    };
}

/// `sql` with `$n` replaced by `args[n - 1]` (the highest numbers first, so `$1` does not eat the
/// start of `$10`).
pub fn with_arguments(sql: &str, args: &[&str]) -> String {
    let mut bound = sql.to_owned();
    for (index, value) in args.iter().enumerate().rev() {
        bound = bound.replace(&format!("${}", index + 1), value);
    }
    bound
}

impl Database {
    /// The plan of `statement` with its arguments, one line per step.
    pub async fn explain(&self, statement: &Planned) -> Result<Vec<String>, sqlx::Error> {
        let sql = match self.backend() {
            Backend::Sqlite => statement.sqlite,
            Backend::Postgres => statement.postgres,
        };
        let sql = with_arguments(sql, statement.args);
        let rows = match self.backend() {
            Backend::Sqlite => {
                sqlx::query(&format!("EXPLAIN QUERY PLAN {sql}"))
                    .fetch_all(self.pool())
                    .await?
            }
            Backend::Postgres => {
                sqlx::query(&format!("EXPLAIN {sql}"))
                    .fetch_all(self.pool())
                    .await?
            }
        };
        let column = match self.backend() {
            Backend::Sqlite => 3,
            Backend::Postgres => 0,
        };
        rows.iter()
            .map(|row| row.try_get::<String, _>(column))
            .collect()
    }

    /// Explains each of `statements` and gives every full scan (`full_scans`, with the tables
    /// `bounded` names for that statement), each with the statement's name and its whole plan;
    /// `SHOW_PLANS=1` prints every plan. Panics on a statement the database cannot explain.
    pub async fn full_scans_of<'a>(
        &self,
        statements: impl IntoIterator<Item = &'a Planned>,
        bounded: impl Fn(&Planned) -> Vec<&'a str>,
    ) -> Vec<String> {
        let mut scans = Vec::new();
        for statement in statements {
            let plan = self
                .explain(statement)
                .await
                .unwrap_or_else(|error| panic!("{}: {error}", statement.name));
            if std::env::var("SHOW_PLANS").is_ok() {
                eprintln!("{}:\n  {}", statement.name, plan.join("\n  "));
            }
            for step in full_scans(&plan, &bounded(statement)) {
                scans.push(format!(
                    "{}: {step}\n  {}",
                    statement.name,
                    plan.join("\n  ")
                ));
            }
        }
        scans
    }

    /// Explains each of `statements` ([`Database::full_scans_of`], with the same `bounded` tables
    /// for each) and fails naming every full scan.
    pub async fn assert_no_full_scans<'a>(
        &self,
        statements: impl IntoIterator<Item = &'a Planned>,
        bounded: &[&'a str],
    ) {
        let scans = self.full_scans_of(statements, |_| bounded.to_vec()).await;
        assert!(
            scans.is_empty(),
            "{:?} reads whole tables:\n{}",
            self.backend(),
            scans.join("\n")
        );
    }

    /// Runs the pruning statement `prune` ([`Database::delete_in_batches`]) and fails, naming it
    /// `name`, unless it went in batches: more rows than one batch, none larger than
    /// [`PRUNE_BATCH`], as many statements as that takes. Gives the rows left in its table.
    pub async fn assert_prunes_in_batches(
        &self,
        name: &str,
        prune: &PerEngine,
        cutoff: i64,
        skip: i64,
    ) -> i64 {
        let done = self
            .delete_in_batches(prune, cutoff, skip)
            .await
            .expect("prune");
        let batch = PRUNE_BATCH as u64;
        assert!(done.rows > batch, "{name}: {done:?}");
        assert!(done.largest <= batch, "{name}: {done:?}");
        assert!(done.statements > done.rows / batch, "{name}: {done:?}");
        let table = prune.sqlite.split_whitespace().nth(2).expect("table");
        sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(self.pool())
            .await
            .expect("count")
    }
}

/// The steps of `plan` that read a table whole: SQLite's `SCAN <table>` without an index
/// (`SCAN <table> USING INDEX` reads in an index's order and stops at a `LIMIT`), PostgreSQL's
/// `Seq Scan on <table>`; but those of the tables (or aliases, or subqueries) named in `bounded`,
/// whose rows do not grow with the users or the history (the webhooks, capped; a subquery's rows).
/// Every other table counts as growing, so a new table is checked until it is named here.
pub fn full_scans(plan: &[String], bounded: &[&str]) -> Vec<String> {
    plan.iter()
        .filter(|step| {
            let step = step.trim_start_matches([' ', '-', '>']).trim();
            let table = if let Some(rest) = step.strip_prefix("SCAN ") {
                if rest.contains(" USING ") || rest.starts_with("CONSTANT ROW") {
                    return false;
                }
                rest.split_whitespace().next()
            } else if let Some(at) = step.find("Seq Scan on ") {
                step[at + "Seq Scan on ".len()..].split_whitespace().next()
            } else {
                None
            };
            table.is_some_and(|table| !bounded.contains(&table))
        })
        .cloned()
        .collect()
}

/// What in `source` (a Rust file of statements, its tests left out) could run a statement the
/// query-plan test does not explain: each call of `sqlx::query*`, `prepare_cached`,
/// `delete_in_batches` or a `Database::query_*` (`db::params`) whose statement is not a constant named in `planned`, and not one of `exempt` (the call's argument
/// text, for a statement built at run time that looks nothing up, given with the reason in the
/// test). Empty when every statement is planned.
pub fn unplanned_statements(source: &str, planned: &[Planned], exempt: &[&str]) -> Vec<String> {
    let source = source
        .split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or(source);
    let mut found = Vec::new();
    for call in [
        "sqlx::query",
        "prepare_cached",
        "delete_in_batches",
        ".query_all",
        ".query_one",
        ".query_optional",
        ".query_execute",
    ] {
        for (at, _) in source.match_indices(call) {
            let Some(argument) = first_argument(&source[at + call.len()..]) else {
                found.push(format!("unreadable call at byte {at}"));
                continue;
            };
            let name = argument
                .trim_start_matches('&')
                .split('.')
                .next()
                .unwrap_or_default();
            let named = planned.iter().any(|statement| statement.name == name);
            if !named && !exempt.contains(&argument.as_str()) {
                found.push(argument);
            }
        }
    }
    found
}

/// The first argument of the call at the start of `rest` (after the function's name: its
/// remaining letters and turbofish, then `(`), trimmed.
fn first_argument(rest: &str) -> Option<String> {
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let mut depth = 0;
    let mut open = None;
    for (index, c) in rest.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            '(' if depth == 0 => {
                open = Some(index + 1);
                break;
            }
            _ if depth == 0 && c != ':' => return None,
            _ => {}
        }
    }
    let body = &rest[open?..];
    let mut depth = 0;
    for (index, c) in body.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return Some(body[..index].trim().to_owned()),
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => return Some(body[..index].trim().to_owned()),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{full_scans, unplanned_statements, with_arguments, Planned};

    #[test]
    fn a_statement_written_inline_or_not_listed_is_unplanned() {
        let source = "fn a() { sqlx::query_as::<_, (String,)>(LISTED).bind(1); \
            sqlx::query_scalar(\"SELECT 1\"); connection.prepare_cached(OTHER)?; \
            sqlx::query(&format!(\"x {y}\")); sqlx::query(&sql); \
            db.query_all::<(String, i64)>(LISTED, (1,)); db.query_optional(UNLISTED, ()); \
            sqlx::query(LISTED).execute(pool); }\n\
            #[cfg(test)]\nmod tests { sqlx::query(\"SELECT 2\"); }";
        let planned = [Planned {
            name: "LISTED",
            sqlite: "SELECT 1",
            postgres: "SELECT 1",
            args: &[],
        }];
        assert_eq!(
            unplanned_statements(source, &planned, &["&sql"]),
            ["\"SELECT 1\"", "&format!(\"x {y}\")", "OTHER", "UNLISTED"]
        );
    }

    #[test]
    fn arguments_are_written_in_from_the_highest_number() {
        assert_eq!(
            with_arguments(
                "$1 $10 $2",
                &["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
            ),
            "a j b"
        );
    }

    #[test]
    fn only_reading_a_growing_table_whole_is_a_full_scan() {
        let plan: Vec<String> = [
            "SCAN sessions",
            "SCAN s USING INDEX sessions_by_expiry",
            "SEARCH users USING INDEX sqlite_autoindex_users_1 (identity_id=?)",
            "SCAN chosen",
            "  ->  Seq Scan on revoked_tokens  (cost=0.00..1.01 rows=1 width=8)",
            "Seq Scan on status_webhooks w",
            "SCAN CONSTANT ROW",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            full_scans(&plan, &["chosen", "status_webhooks"]),
            [
                "SCAN sessions",
                "  ->  Seq Scan on revoked_tokens  (cost=0.00..1.01 rows=1 width=8)"
            ]
        );
    }
}
