//! What the database holds, read straight from it: which tables still name someone.

use super::TestApp;

impl TestApp {
    /// Every table (the migrator's, the identity emulator's own and the seeded quotes aside) with the number of its rows
    /// in which some column, read as text, contains `text` (case-sensitive), for the tests that prove
    /// a deletion leaves nothing naming the person. Empty when no row does.
    pub async fn tables_naming(&self, text: &str) -> Vec<(String, i64)> {
        let mut conn = self.connect_db().await;
        let postgres = self.database_url.starts_with("postgres");
        let (tables, columns, contains) = if postgres {
            (
                "SELECT table_name::text FROM information_schema.tables \
                 WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
                "SELECT column_name::text FROM information_schema.columns \
                 WHERE table_schema = 'public' AND table_name = $1",
                "strpos",
            )
        } else {
            (
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
                "SELECT name FROM pragma_table_info($1)",
                "instr",
            )
        };
        let tables: Vec<String> = sqlx::query_scalar(tables)
            .fetch_all(&mut conn)
            .await
            .expect("list tables");
        assert!(tables.iter().any(|t| t == "users"), "{tables:?}");
        let quoted = text.replace('\'', "''");
        let mut naming = Vec::new();
        for table in tables {
            if ["_sqlx_migrations", "emulator_users", "wisdom"].contains(&table.as_str()) {
                continue;
            }
            let columns: Vec<String> = sqlx::query_scalar(columns)
                .bind(&table)
                .fetch_all(&mut conn)
                .await
                .expect("list columns");
            let any_column = columns
                .iter()
                .map(|c| format!("{contains}(CAST(\"{c}\" AS TEXT), '{quoted}') > 0"))
                .collect::<Vec<_>>()
                .join(" OR ");
            let count: i64 = sqlx::query_scalar(&format!(
                "SELECT COUNT(*) FROM \"{table}\" WHERE {any_column}"
            ))
            .fetch_one(&mut conn)
            .await
            .expect("count rows naming the text");
            if count > 0 {
                naming.push((table, count));
            }
        }
        naming
    }
}
