//! The account as a whole: deleting every row of a user (their data export reads `users.rs` and
//! `sessions.rs`).

use super::Database;

impl Database {
    /// Deletes the user and everything stored about them, in one statement committed before it
    /// returns: their `users` row, and through it their sessions (`ON DELETE CASCADE`), each of
    /// which is first recorded as revoked until it would have expired (a trigger), so every browser
    /// still holding one is signed out on its next request. True when there was such a user.
    #[tracing::instrument(skip(self))]
    pub async fn delete_account(&self, identity_id: &str) -> Result<bool, sqlx::Error> {
        let done = sqlx::query("DELETE FROM users WHERE identity_id = $1")
            .bind(identity_id)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() > 0)
    }
}

#[cfg(test)]
mod tests {
    use crate::db::test_database;

    #[tokio::test]
    async fn deleting_an_account_leaves_no_row_of_it_and_revokes_its_sessions() {
        let (_dir, db) = test_database().await;
        for user in ["gone", "kept"] {
            db.find_or_create_user(user, Some("a@example.com"), 0)
                .await
                .expect("user");
            db.touch_labelled_session(user, &format!("{user}-1"), Some("Firefox"), 50_000, 0)
                .await
                .expect("session");
            db.touch_session(user, &format!("{user}-2"), 50_000, 0)
                .await
                .expect("session");
        }
        assert!(db.delete_account("gone").await.expect("delete"));
        assert!(!db.delete_account("gone").await.expect("delete again"));
        assert!(db.find_user("gone").await.expect("read").is_none());
        let sessions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions")
            .fetch_one(db.pool())
            .await
            .expect("count");
        assert_eq!(sessions, 2, "only the other user's sessions are left");
        for key in ["gone-1", "gone-2"] {
            assert!(db.is_session_revoked(key, 1_000).await.expect("read"));
        }
        assert!(!db.is_session_revoked("kept-1", 1_000).await.expect("read"));
        // A browser of the deleted account cannot record its session again, even under a new
        // account of the same identity.
        db.find_or_create_user("gone", None, 2_000)
            .await
            .expect("a new account");
        db.touch_session("gone", "gone-1", 60_000, 2_000)
            .await
            .expect("touch");
        assert_eq!(db.count_active_sessions("gone", 2_000).await.expect("n"), 0);
    }
}
