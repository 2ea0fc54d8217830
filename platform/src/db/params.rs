//! One statement run on the pool with its arguments given as a tuple, in the order of their
//! placeholders (as rusqlite's `params`): `db.query_all(CHECKS_OF, (instance_id, from_ms, to_ms))`
//! is `sqlx::query_as(CHECKS_OF).bind(instance_id).bind(from_ms).bind(to_ms).fetch_all(db.pool())`.
//! For reads, and for writes that return no rows; a write that returns rows goes through
//! [`Database::commit_returning`] instead.

use sqlx::{
    any::{Any, AnyArguments, AnyQueryResult, AnyRow},
    error::BoxDynError,
    Arguments, Encode, FromRow, Type,
};

use super::Database;

/// A statement's arguments: a tuple of up to eight values (`(x,)` for one, `()` for none).
pub trait Params<'q> {
    /// The values bound in order; a value that cannot be encoded is the statement's error.
    fn arguments(self) -> Result<AnyArguments<'q>, BoxDynError>;
}

macro_rules! tuple_params {
    ($($value:ident),*) => {
        impl<'q, $($value),*> Params<'q> for ($($value,)*)
        where
            $($value: Encode<'q, Any> + Type<Any> + Send + 'q,)*
        {
            #[allow(non_snake_case, unused_mut)]
            fn arguments(self) -> Result<AnyArguments<'q>, BoxDynError> {
                let mut arguments = AnyArguments::default();
                let ($($value,)*) = self;
                $(arguments.add($value)?;)*
                Ok(arguments)
            }
        }
    };
}

tuple_params!();
tuple_params!(A);
tuple_params!(A, B);
tuple_params!(A, B, C);
tuple_params!(A, B, C, D);
tuple_params!(A, B, C, D, E);
tuple_params!(A, B, C, D, E, F);
tuple_params!(A, B, C, D, E, F, G);
tuple_params!(A, B, C, D, E, F, G, H);

/// The reading methods, each named `query_` and the `QueryAs` fetch it runs (names of their own,
/// so the plan tests find every statement they are given: `plans::unplanned_statements`).
macro_rules! reads {
    ($($(#[$doc:meta])* $name:ident = $fetch:ident -> $rows:ty;)*) => {
        impl Database {
            $(
                $(#[$doc])*
                pub async fn $name<'q, T>(&self, sql: &'q str, params: impl Params<'q>) -> $rows
                where
                    T: for<'r> FromRow<'r, AnyRow> + Send + Unpin,
                {
                    let arguments = params.arguments().map_err(sqlx::Error::Encode)?;
                    sqlx::query_as_with(sql, arguments).$fetch(self.pool()).await
                }
            )*
        }
    };
}

reads! {
    /// Every row the statement reads.
    query_all = fetch_all -> Result<Vec<T>, sqlx::Error>;
    /// The statement's one row (`RowNotFound` without one).
    query_one = fetch_one -> Result<T, sqlx::Error>;
    /// The statement's first row, if it reads one.
    query_optional = fetch_optional -> Result<Option<T>, sqlx::Error>;
}

impl Database {
    /// Runs a statement that returns no rows.
    pub async fn query_execute<'q>(
        &self,
        sql: &'q str,
        params: impl Params<'q>,
    ) -> Result<AnyQueryResult, sqlx::Error> {
        let arguments = params.arguments().map_err(sqlx::Error::Encode)?;
        sqlx::query_with(sql, arguments).execute(self.pool()).await
    }
}
