//! The account as a whole: deleting every row of a user and stopping every token of theirs (their
//! data export reads `users.rs` and `sessions.rs`).

use super::Database;

impl Database {
    /// Deletes the user and everything stored about them, in one statement committed before it
    /// returns: the user's not-before time is set to `now_ms`, nothing exempt (every token of the
    /// user issued before is refused from then on; kept under `user_key`, a hash of the identity
    /// id, for as long as such a token can live), and its trigger revokes the bindings of their
    /// sessions (a sign-in's later tokens are refused too) and deletes their `users` row, and
    /// through it their sessions (`ON DELETE CASCADE`). True when there was such a user; with
    /// none, nothing changes.
    #[tracing::instrument(skip_all)]
    pub async fn delete_account(
        &self,
        identity_id: &str,
        user_key: &str,
        now_ms: i64,
    ) -> Result<bool, sqlx::Error> {
        self.cut_off((identity_id, user_key), None, true, now_ms)
            .await
    }
}

#[cfg(test)]
mod tests {
    use crate::db::testing::test_database;
    use crate::identity::user_key;

    #[tokio::test]
    async fn deleting_an_account_leaves_no_row_of_it_and_refuses_its_tokens() {
        let (_dir, db) = test_database().await;
        for user in ["gone", "kept"] {
            db.find_or_create_user(user, Some("a@example.com"), 0)
                .await
                .expect("user");
            let first = format!("{user}-1");
            db.touch_labelled_session(user, (&first, &first), Some("Firefox"), 50_000, 0)
                .await
                .expect("session");
            db.touch_session(user, &format!("{user}-2"), 50_000, 0)
                .await
                .expect("session");
        }
        let (gone, kept) = (user_key("gone"), user_key("kept"));
        assert!(db
            .delete_account("gone", &gone, 1_000)
            .await
            .expect("delete"));
        assert!(!db
            .delete_account("gone", &gone, 1_000)
            .await
            .expect("delete again"));
        assert!(db.find_user("gone").await.expect("read").is_none());
        let sessions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions")
            .fetch_one(db.pool())
            .await
            .expect("count");
        assert_eq!(sessions, 2, "only the other user's sessions are left");
        for binding in ["gone-1", "gone-2"] {
            // Revoked whenever issued (a sign-in's later tokens too).
            assert!(db
                .token_refused(binding, &gone, 5_000, 2_000)
                .await
                .expect("read"));
        }
        assert!(db
            .token_refused("other", &gone, 0, 2_000)
            .await
            .expect("read"));
        assert!(!db
            .token_refused("other", &gone, 1_000, 2_000)
            .await
            .expect("read"));
        assert!(!db
            .token_refused("kept-1", &kept, 0, 2_000)
            .await
            .expect("read"));
        // Nothing stored names the user.
        for table in ["revoked_tokens", "token_cutoffs"] {
            let named: i64 = sqlx::query_scalar(&format!(
                "SELECT COUNT(*) FROM {table} WHERE user_key LIKE '%gone%'"
            ))
            .fetch_one(db.pool())
            .await
            .expect("count");
            assert_eq!(named, 0, "{table}");
        }
    }
}
