//! Every statement on the sessions, revocations and users tables (each request's, the account
//! page's, the periodic prune's, and those the migrations' triggers run) finds its rows through an
//! index: explained on a database seeded with thousands of users (statistics refreshed, so
//! PostgreSQL's planner weighs a real table, not an empty one), no plan reads a table whole. A
//! statement the code runs that is not listed here fails the test (`unplanned_statements`).

use mg_platform::db::{
    plans::{drop_test_postgres, full_scans, test_postgres, unplanned_statements, Planned},
    revocations as r, sessions as s, test_database, users as u, Database,
};

/// Users seeded: enough that reading a table whole costs PostgreSQL's planner more than an index.
const USERS: i64 = 5_000;

/// Subqueries and derived tables whose rows are a handful by construction.
const BOUNDED: &[&str] = &["chosen", "bound"];

macro_rules! planned {
    ($($module:ident::$name:ident [$($arg:literal),*]),* $(,)?) => {
        &[$(Planned { name: stringify!($name), sql: $module::$name, args: &[$($arg),*] }),*]
    };
}

/// The code's statements, with arguments that name a seeded user (`user-7`, `key-7`) and their
/// session (`s7-1`, binding `b7-1`) at 5,000 ms.
const STATEMENTS: &[Planned] = planned![
    s::TOUCH_SESSION["'user-7'", "'s7-9'", "5000", "90000", "'Firefox'", "'b7-9'"],
    s::CAP_SESSIONS["'user-7'", "20"],
    s::END_SESSION["'s7-1'", "'user-7'"],
    s::PRUNE_SESSIONS["5000", "1000"],
    s::LIST_SESSIONS["'user-7'", "5000", "20"],
    s::SESSION_BINDING["'user-7'", "'s7-1'", "5000"],
    s::REVOKE_SESSION["'user-7'", "'s7-2'", "'key-7'", "5000", "90000", "'b7-1'"],
    s::COUNT_OTHER_SESSIONS["'user-7'", "'s7-1'", "5000", "'b7-1'"],
    s::COUNT_ACTIVE_SESSIONS["'user-7'", "5000"],
    r::IS_REFUSED["'b7-1'", "'key-7'", "4000", "5000"],
    r::PRUNE_REVOKED_TOKENS["5000", "1000"],
    r::PRUNE_TOKEN_CUTOFFS["5000", "1000"],
    r::COUNT_REVOKED["'key-7'"],
    r::FOLDED_UNTIL["'key-7'", "3"],
    r::FOLD_INTO_CUTOFF["'key-7'", "4000", "'b7-1'", "90000"],
    r::DELETE_FOLDED["'key-7'", "4000"],
    r::CUT_OFF_OTHERS["'key-7'", "5000", "'b7-1'", "90000", "'user-7'"],
    r::CUT_OFF_ACCOUNT["'key-7'", "5000", "NULL", "90000", "'user-7'"],
    u::FIND_USER["'user-7'"],
    u::CREATE_USER["'user-7'", "NULL", "5000"],
    u::SAVE_PROFILE["'user-7'", "NULL", "5000", "'Ada'", "NULL", "NULL", "5000"],
    u::USER_WITH_SESSIONS["'user-7'", "5000"],
];

/// The statements the triggers of migration 0010 run (`NEW.x` written as arguments; the SQLite
/// text, whose `MAX(a, b)` is PostgreSQL's `GREATEST`, written as a `CASE`).
const TRIGGERS: &[Planned] = &[
    Planned {
        name: "revoking_a_binding_ends_its_sessions",
        sql: "DELETE FROM sessions WHERE binding = $1 OR previous_binding = $1",
        args: &["'b7-2'"],
    },
    Planned {
        name: "a_new_cutoff_signs_out_the_others (revoke)",
        sql: "SELECT b, $2, $3, CASE WHEN e > $3 THEN e ELSE $3 END FROM ( \
                SELECT binding AS b, expires_at AS e, binding AS s FROM sessions \
                    WHERE user_id = $1 \
                UNION ALL \
                SELECT previous_binding, expires_at, binding FROM sessions \
                    WHERE user_id = $1 \
            ) AS bound WHERE b IS NOT NULL AND ($4 IS NULL OR s <> $4)",
        args: &["7", "'key-7'", "5000", "'b7-1'"],
    },
    Planned {
        name: "a_new_cutoff_signs_out_the_others (delete)",
        sql: "DELETE FROM users WHERE id = $1",
        args: &["7"],
    },
    Planned {
        name: "a_new_cutoff_signs_out_the_others (reset)",
        sql: "UPDATE token_cutoffs SET user_id = NULL, deletes_user = 0 WHERE user_key = $1",
        args: &["'key-7'"],
    },
];

/// Explains every statement on `db` (seeded here) and fails naming each full scan.
async fn no_statement_reads_a_growing_table_whole(db: &Database) {
    db.seed_users(1, USERS).await.expect("seed");
    let mut scans = Vec::new();
    for statement in STATEMENTS.iter().chain(TRIGGERS) {
        let plan = db
            .explain(statement)
            .await
            .unwrap_or_else(|error| panic!("{}: {error}", statement.name));
        if std::env::var("SHOW_PLANS").is_ok() {
            eprintln!("{}:\n  {}", statement.name, plan.join("\n  "));
        }
        for step in full_scans(&plan, BOUNDED) {
            scans.push(format!(
                "{}: {step}\n  {}",
                statement.name,
                plan.join("\n  ")
            ));
        }
    }
    assert!(
        scans.is_empty(),
        "{:?} reads whole tables:\n{}",
        db.backend(),
        scans.join("\n")
    );
}

#[tokio::test]
async fn statements_use_indexes_on_sqlite() {
    let (_dir, db) = test_database().await;
    no_statement_reads_a_growing_table_whole(&db).await;
}

#[tokio::test]
async fn statements_use_indexes_on_postgres() {
    let Some(url) = test_postgres().await else {
        return;
    };
    let db = Database::connect(&url, None).await.expect("database");
    no_statement_reads_a_growing_table_whole(&db).await;
    db.pool().close().await;
    drop_test_postgres(&url).await;
}

#[test]
fn every_statement_of_the_modules_is_listed_here() {
    for (file, source) in [
        ("sessions.rs", include_str!("../src/db/sessions.rs")),
        ("revocations.rs", include_str!("../src/db/revocations.rs")),
        ("users.rs", include_str!("../src/db/users.rs")),
        ("account.rs", include_str!("../src/db/account.rs")),
    ] {
        let unplanned = unplanned_statements(source, STATEMENTS, &[]);
        assert!(
            unplanned.is_empty(),
            "{file} runs statements the plan test does not explain: {unplanned:?}"
        );
    }
}
