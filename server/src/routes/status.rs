//! The status answers: `/api/status`, `/api/status/history`, the Statuspage-shaped
//! `/api/v2/*.json`, badges and the Atom feed. All come from memory (`StatusService::published`),
//! rendered once per round of checks, with `ETag`/304.

use std::sync::Arc;

use axum::{
    extract::{Path, RawQuery, State},
    response::Response,
    routing::{get, MethodRouter},
    Router,
};

use mg_domain::status::Range;

use crate::{
    error::AppError,
    precomputed::negotiate::IfNoneMatch,
    state::AppState,
    status::{
        render::{Published, ReadyAnswer},
        StatusService,
    },
};

/// Longest query string `/api/status/history` reads.
const MAX_QUERY_LEN: usize = 256;

/// Routes at the top level: badges and the feed.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/status/badge/{file}", get(get_badge))
        .route("/status/feed.atom", published(|p| &p.feed))
        .route("/status/notices", get(get_notices))
        .route("/status/notices/list", published(|p| &p.notices_fragment))
}

/// `GET` of the answer `pick` chooses from the published ones, with `ETag`/304.
fn published(pick: fn(&Published) -> &ReadyAnswer) -> MethodRouter<AppState> {
    get(
        move |State(status): State<Arc<StatusService>>, headers: IfNoneMatch| async move {
            pick(&status.published()).answer(&headers)
        },
    )
}

/// Routes nested under `/api`.
pub fn api_router() -> Router<AppState> {
    Router::new()
        .route("/status", published(|p| &p.status))
        .route("/status/history", get(get_history))
        .route("/status/page", get(get_page))
        .route("/v2/summary.json", published(|p| &p.statuspage_summary))
        .route("/v2/status.json", published(|p| &p.statuspage_status))
        .route(
            "/v2/components.json",
            published(|p| &p.statuspage_components),
        )
        .route("/v2/incidents.json", published(|p| &p.statuspage_incidents))
        .route(
            "/v2/incidents/unresolved.json",
            published(|p| &p.statuspage_unresolved),
        )
        .route(
            "/v2/scheduled-maintenances.json",
            published(|p| &p.maintenances[0]),
        )
        .route(
            "/v2/scheduled-maintenances/upcoming.json",
            published(|p| &p.maintenances[1]),
        )
        .route(
            "/v2/scheduled-maintenances/active.json",
            published(|p| &p.maintenances[2]),
        )
}

/// `/status/badge/{component}.svg`; any other name, one that is not even text included, is a
/// JSON 404 (axum's own rejection would be plain text).
async fn get_badge(
    State(status): State<Arc<StatusService>>,
    file: Result<Path<String>, axum::extract::rejection::PathRejection>,
    headers: IfNoneMatch,
) -> Result<Response, AppError> {
    let Ok(Path(file)) = file else {
        return Err(AppError::NotFound);
    };
    let published = status.published();
    let badge = file
        .strip_suffix(".svg")
        .and_then(|component| published.badges.get(component))
        .ok_or(AppError::NotFound)?;
    Ok(badge.answer(&headers))
}

/// `/status/notices`: the open and recent posts, newest update each (made once a round);
/// `?from=<notice id>` (empty: the newest): a page of posts with their whole timelines.
async fn get_notices(
    State(status): State<Arc<StatusService>>,
    RawQuery(query): RawQuery,
    headers: IfNoneMatch,
) -> Result<Response, AppError> {
    match parse_notices_query(query.as_deref().unwrap_or_default())? {
        None => Ok(status.published().notices_page.answer(&headers)),
        Some(from) => status
            .timeline_page(&from)
            .await?
            .map(|page| page.answer(&headers))
            .ok_or(AppError::NotFound),
    }
}

/// The `from` of a notices query (absent: the open and recent posts).
pub fn parse_notices_query(query: &str) -> Result<Option<String>, AppError> {
    let [from] = query_params(query, ["from"])?;
    Ok(from)
}

/// The values of a query that may give each of `names` once and nothing else (`None`: not given).
fn query_params<const N: usize>(
    query: &str,
    names: [&'static str; N],
) -> Result<[Option<String>; N], AppError> {
    if query.len() > MAX_QUERY_LEN {
        return Err(AppError::BadRequest("The query string is too long.".into()));
    }
    let mut values = [const { None }; N];
    for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
        let Some(at) = names.iter().position(|name| key == *name) else {
            return Err(AppError::BadRequest(format!(
                "Unknown query parameter: use {}.",
                names.join(" and ")
            )));
        };
        if values[at].replace(value.into_owned()).is_some() {
            return Err(AppError::BadRequest(format!(
                "'{}' is given twice.",
                names[at]
            )));
        }
    }
    Ok(values)
}

/// The status page's one request per round: the summary with every component's 90-day and 24-hour
/// series. `?since=<updated_at>` (the `updated_at` of the answer the client holds) asks only for
/// what may have changed since; `If-None-Match` with the last `ETag` is a 304 until the next round.
async fn get_page(
    State(status): State<Arc<StatusService>>,
    RawQuery(query): RawQuery,
    headers: IfNoneMatch,
) -> Result<Response, AppError> {
    let published = status.published();
    match parse_page_query(query.as_deref().unwrap_or_default())? {
        Some(since) if !headers_match(&headers, &published.page) => {
            Ok(published.page_since(&since, &headers))
        }
        _ => Ok(published.page.answer(&headers)),
    }
}

/// True when the request's `If-None-Match` already names `rendered` (the answer is then a 304).
fn headers_match(headers: &IfNoneMatch, rendered: &ReadyAnswer) -> bool {
    rendered.answer(headers).status() == axum::http::StatusCode::NOT_MODIFIED
}

/// The `since` of a page query (absent: the full page). `since` is an RFC 3339 UTC time as the
/// server writes them (`2026-11-25T14:03:12.345Z`); anything else is a 400.
pub fn parse_page_query(query: &str) -> Result<Option<String>, AppError> {
    let [since] = query_params(query, ["since"])?;
    match since {
        Some(text) if !is_server_time(&text) => Err(AppError::InvalidField(
            "since must be the updated_at of an earlier answer.".into(),
        )),
        since => Ok(since),
    }
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ`, the one form the server writes times in.
fn is_server_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 24
        && bytes.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            10 => *b == b'T',
            13 | 16 => *b == b':',
            19 => *b == b'.',
            23 => *b == b'Z',
            _ => b.is_ascii_digit(),
        })
}

/// `?component=<id>&range=24h|7d|90d` (range defaults to 24h). Anything else is a 400.
async fn get_history(
    State(status): State<Arc<StatusService>>,
    RawQuery(query): RawQuery,
    headers: IfNoneMatch,
) -> Result<Response, AppError> {
    let published = status.published();
    let (component, range) =
        parse_history_query(query.as_deref().unwrap_or_default(), &published.components)?;
    published
        .history
        .get(&(component, range))
        .map(|rendered| rendered.answer(&headers))
        .ok_or(AppError::NotFound)
}

/// The component (one of `components`) and range a history query asks for. The client's text is
/// never put into an error message.
pub fn parse_history_query(
    query: &str,
    components: &[String],
) -> Result<(String, Range), AppError> {
    let [component, range] = query_params(query, ["component", "range"])?;
    let known = components.join(", ");
    let component = component
        .ok_or_else(|| AppError::InvalidField(format!("component is required: one of {known}.")))?;
    if !components.contains(&component) {
        return Err(AppError::InvalidField(format!(
            "Unknown component: use one of {known}."
        )));
    }
    let range = match range.as_deref() {
        None => Range::Day,
        Some(asked) => Range::parse(asked)
            .ok_or_else(|| AppError::InvalidField("range must be 24h, 7d or 90d.".into()))?,
    };
    Ok((component, range))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn components() -> Vec<String> {
        vec!["api".into(), "db".into()]
    }

    #[test]
    fn a_good_query_names_a_known_component_and_range() {
        assert_eq!(
            parse_history_query("component=db&range=7d", &components()).ok(),
            Some(("db".to_owned(), Range::Week))
        );
        assert_eq!(
            parse_history_query("range=90d&component=api", &components()).ok(),
            Some(("api".to_owned(), Range::Quarter))
        );
    }

    #[test]
    fn a_page_query_is_empty_or_one_server_time() {
        assert_eq!(parse_page_query("").ok(), Some(None));
        assert_eq!(
            parse_page_query("since=2026-11-25T14%3A03%3A12.345Z").ok(),
            Some(Some("2026-11-25T14:03:12.345Z".to_owned()))
        );
        for bad in [
            "since=yesterday",
            "since=2026-11-25",
            "range=90d",
            "since=2026-11-25T14:03:12.345Z&since=2026-11-25T14:03:12.345Z",
        ] {
            let error = parse_page_query(bad).expect_err(bad);
            assert_eq!(error.status().as_u16(), 400, "{bad}");
        }
    }

    proptest! {
        /// Whatever the query, the answer is a known (component, range) or a 400 whose message does
        /// not repeat the client's text; never a panic.
        #[test]
        fn any_query_is_a_known_pair_or_a_clear_400(query in ".{0,300}", key in "[a-z]{1,12}") {
            for query in [query.clone(), format!("{key}={query}"), format!("component={query}")] {
                match parse_history_query(&query, &components()) {
                    Ok((component, range)) => {
                        prop_assert!(components().contains(&component));
                        prop_assert!(Range::ALL.contains(&range));
                    }
                    Err(error) => {
                        prop_assert_eq!(error.status().as_u16(), 400);
                        let message = error.message();
                        prop_assert!(message.len() < 120, "{}", message);
                        prop_assert!(!message.contains('<'));
                    }
                }
            }
        }
    }
}
