//! `POST /api/wisdom`: a seeded quote, or an error that tells an operator what to do.

use std::collections::HashSet;

use serde_json::Value;

use crate::helpers::TestApp;

async fn wisdom_answers_a_random_seeded_quote_with_its_orator(app: TestApp) {
    let mut seen = HashSet::new();
    for _ in 0..20 {
        let response = app.post("/api/wisdom").await;
        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.expect("JSON body");
        let quote = body["wisdom"]["quote"].as_str().expect("quote").to_owned();
        assert!(!body["wisdom"]["orator"]
            .as_str()
            .expect("orator")
            .is_empty());
        seen.insert(quote);
    }
    assert!(
        seen.len() > 1,
        "quotes are picked at random, not always the same"
    );
    assert!(
        app.count_rows("wisdom").await >= 40,
        "at least 40 quotes are seeded"
    );
}
on_both_backends!(wisdom_answers_a_random_seeded_quote_with_its_orator);

async fn wisdom_failures_answer_503_with_instructions_for_the_operator(app: TestApp) {
    crate::health::take_database_away(&app).await;
    let body: Value = crate::health::once_unavailable(|| app.post("/api/wisdom"))
        .await
        .expect("wisdom answers 503 once the database is gone")
        .json()
        .await
        .expect("JSON body");
    assert_eq!(body["error"], "Wisdom is unavailable right now.");
    assert_eq!(body["message"], "The database is unavailable.");
    assert!(body["instructions"]
        .as_str()
        .expect("instructions")
        .contains("DATABASE_URL"));
}
on_both_backends!(wisdom_failures_answer_503_with_instructions_for_the_operator);

/// Every quote of `seed/wisdom.json` is stored exactly once, however often the server starts, and a
/// database migrated by the old text of a rewritten migration (migration 2 inserted the quotes itself;
/// migration 5's comment changed) still starts.
async fn wisdom_is_seeded_from_one_file_on_both_engines(app: TestApp) {
    use mg_server::db::{wisdom::seed_quotes, Backend, Database, REWRITTEN_MIGRATIONS};
    use sqlx::Connection;

    let quotes = seed_quotes().expect("the seed file parses");
    assert_eq!(app.count_rows("wisdom").await, quotes.len() as i64);

    let backend = Backend::of_url(&app.database_url);
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&app.database_url)
        .await
        .expect("test connects");
    for &(version, sqlite_old, postgres_old) in REWRITTEN_MIGRATIONS {
        let old_checksum = match backend {
            Backend::Sqlite => format!("X'{sqlite_old}'"),
            Backend::Postgres => format!("decode('{postgres_old}', 'hex')"),
        };
        sqlx::query(&format!(
            "UPDATE _sqlx_migrations SET checksum = {old_checksum} WHERE version = {version}"
        ))
        .execute(&mut conn)
        .await
        .expect("the old checksum is set");
    }
    sqlx::query("DELETE FROM wisdom WHERE quote = $1")
        .bind(&quotes[0].quote)
        .execute(&mut conn)
        .await
        .expect("one quote removed");
    conn.close().await.expect("close");

    Database::connect(&app.database_url, Some(1))
        .await
        .expect("a database migrated by the old texts of rewritten migrations still starts");
    Database::connect(&app.database_url, Some(1))
        .await
        .expect("and starts again");
    assert_eq!(
        app.count_rows("wisdom").await,
        quotes.len() as i64,
        "the missing quote is seeded again, none twice"
    );
}
on_both_backends!(wisdom_is_seeded_from_one_file_on_both_engines);
