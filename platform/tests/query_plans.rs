//! Every statement on the sessions, revocations and users tables (each request's, the account
//! page's, the periodic prune's, and those the migrations' triggers run) finds its rows through an
//! index: explained on a database seeded with thousands of users (statistics refreshed, so
//! PostgreSQL's planner weighs a real table, not an empty one), no plan reads a table whole. A
//! statement the code runs that is not listed here fails the test (`unplanned_statements`). Then
//! the same database is pruned, to show each pruning statement deletes at most a batch.

use mg_platform::db::{
    plans::{trigger, unplanned_statements, Planned},
    revocations as r, sessions as s, users as u, Database,
};

/// Users seeded: enough that reading a table whole costs PostgreSQL's planner more than an index.
const USERS: i64 = 5_000;

/// Subqueries and derived tables whose rows are a handful by construction.
const BOUNDED: &[&str] = &["chosen", "bound"];

/// The code's statements, with arguments that name a seeded user (`user-7`, `key-7`) and their
/// session (`s7-1`, binding `b7-1`) at 5,000 ms.
const STATEMENTS: &[Planned] = mg_platform::planned![
    s::TOUCH_SESSION["'user-7'", "'s7-9'", "5000", "90000", "'Firefox'", "'b7-9'"],
    s::CAP_SESSIONS["'user-7'", "20"],
    s::END_SESSION["'s7-1'", "'user-7'"],
    s::LIST_SESSIONS["'user-7'", "5000", "20"],
    s::SESSION_BINDING["'user-7'", "'s7-1'", "5000"],
    s::REVOKE_SESSION["'user-7'", "'s7-2'", "'key-7'", "5000", "90000", "'b7-1'"],
    s::COUNT_OTHER_SESSIONS["'user-7'", "'s7-1'", "5000", "'b7-1'"],
    s::COUNT_ACTIVE_SESSIONS["'user-7'", "5000"],
    r::IS_REFUSED["'b7-1'", "'key-7'", "4000", "5000"],
    r::REVOKE_OWN_BINDING["'b7-1'", "'key-7'", "5000", "90000"],
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

/// The statements written in each engine's form (`PerEngine`): the batched prunes (`$1` the
/// cutoff, `$2` the batch) and any that lock rows on PostgreSQL.
const PER_ENGINE: &[Planned] = mg_platform::planned![per_engine
    s::PRUNE_SESSIONS["5000", "1000"],
    r::PRUNE_REVOKED_TOKENS["5000", "1000"],
    r::PRUNE_TOKEN_CUTOFFS["5000", "1000"],
];

/// The statements the triggers of migration 0010 run (`NEW.x` written as arguments; the SQLite
/// text, whose `MAX(a, b)` is PostgreSQL's `GREATEST`, written as a `CASE`).
const TRIGGERS: &[Planned] = &[
    trigger(
        "revoking_a_binding_ends_its_sessions",
        "DELETE FROM sessions WHERE binding = $1 OR previous_binding = $1",
        &["'b7-2'"],
    ),
    trigger(
        "a_new_cutoff_signs_out_the_others (revoke)",
        "SELECT b, $2, $3, CASE WHEN e > $3 THEN e ELSE $3 END FROM ( \
                SELECT binding AS b, expires_at AS e, binding AS s FROM sessions \
                    WHERE user_id = $1 \
                UNION ALL \
                SELECT previous_binding, expires_at, binding FROM sessions \
                    WHERE user_id = $1 \
            ) AS bound WHERE b IS NOT NULL AND ($4 IS NULL OR s <> $4)",
        &["7", "'key-7'", "5000", "'b7-1'"],
    ),
    trigger(
        "a_new_cutoff_signs_out_the_others (delete)",
        "DELETE FROM users WHERE id = $1",
        &["7"],
    ),
    trigger(
        "a_new_cutoff_signs_out_the_others (reset)",
        "UPDATE token_cutoffs SET user_id = NULL, deletes_user = 0 WHERE user_key = $1",
        &["'key-7'"],
    ),
];

/// Explains every statement on `db` (seeded here) and fails naming each full scan.
async fn no_statement_reads_a_growing_table_whole(db: &Database) {
    db.seed_users(1, USERS).await.expect("seed");
    let statements = STATEMENTS.iter().chain(PER_ENGINE).chain(TRIGGERS);
    db.assert_no_full_scans(statements, BOUNDED).await;
}

/// Expires every seeded row, then prunes: each pruning statement deletes at most a batch, so
/// pruning the seeded thousands takes several, and leaves nothing expired.
async fn pruning_goes_in_batches(db: &Database) {
    for table in ["sessions", "revoked_tokens", "token_cutoffs"] {
        sqlx::query(&format!("UPDATE {table} SET expires_at = 1"))
            .execute(db.pool())
            .await
            .expect("expire");
    }
    for (table, prune) in [
        ("sessions", &s::PRUNE_SESSIONS),
        ("revoked_tokens", &r::PRUNE_REVOKED_TOKENS),
        ("token_cutoffs", &r::PRUNE_TOKEN_CUTOFFS),
    ] {
        let left = db.assert_prunes_in_batches(table, prune, 5_000, 0).await;
        assert_eq!(left, 0, "{table}");
    }
}

mg_platform::plan_tests!(
    no_statement_reads_a_growing_table_whole,
    pruning_goes_in_batches
);

#[test]
fn every_statement_of_the_modules_is_listed_here() {
    for (file, source) in [
        ("sessions.rs", include_str!("../src/db/sessions.rs")),
        ("revocations.rs", include_str!("../src/db/revocations.rs")),
        ("users.rs", include_str!("../src/db/users.rs")),
        ("account.rs", include_str!("../src/db/account.rs")),
    ] {
        let unplanned = unplanned_statements(source, &[STATEMENTS, PER_ENGINE].concat(), &[]);
        assert!(
            unplanned.is_empty(),
            "{file} runs statements the plan test does not explain: {unplanned:?}"
        );
    }
}
