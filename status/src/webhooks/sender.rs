//! One attempt to deliver: sign the body, connect to the vetted address of the webhook's host
//! (redirects are not followed: a 3xx is a failure), and tell what happened, with when to try
//! again.
//!
//! Headers: `X-MG-Delivery` (the delivery id, the same on every attempt), `X-MG-Event`,
//! `X-MG-Timestamp` (unix seconds of this attempt) and `X-MG-Signature: sha256=<hex>`, the
//! HMAC-SHA256 of `{timestamp}.{body}` under the webhook's secret.

use std::time::Duration;

use ring::hmac;

use super::{guard, limits::BACKOFF_SECS};
use crate::store::deliveries::Outcome;

/// The longest an attempt may take, connecting included.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest error text kept in the delivery log.
const ERROR_CHARS: usize = 300;

/// Where a claimed delivery goes.
#[derive(Debug, Clone)]
pub struct Target<'a> {
    pub url: &'a str,
    /// Hex of the signing key.
    pub secret: &'a str,
    pub allow_private: bool,
}

/// The headers' values for one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    pub timestamp: String,
    pub signature: String,
}

/// Signs `body` at `unix_seconds` with the key whose hex is `secret_hex`.
pub fn sign(secret_hex: &str, unix_seconds: i64, body: &str) -> Signed {
    let secret = mg_platform::hex::decode(secret_hex).unwrap_or_default();
    let key = hmac::Key::new(hmac::HMAC_SHA256, &secret);
    let timestamp = unix_seconds.to_string();
    let mut context = hmac::Context::with_key(&key);
    context.update(timestamp.as_bytes());
    context.update(b".");
    context.update(body.as_bytes());
    let signature = format!(
        "sha256={}",
        mg_platform::hex::encode(context.sign().as_ref())
    );
    Signed {
        timestamp,
        signature,
    }
}

/// Sends one attempt (`attempt` counts from 1) of delivery `id` of `event` with `body` at
/// `now_ms`; what to record.
pub async fn attempt(
    target: &Target<'_>,
    id: &str,
    event: &str,
    body: &str,
    attempt: i64,
    now_ms: i64,
) -> Outcome {
    let (status, error) = match send(target, id, event, body, now_ms).await {
        Ok(status) if (200..300).contains(&status) => return Outcome::Delivered { status },
        Ok(status) if (300..400).contains(&status) => (
            Some(status),
            format!("HTTP {status}: a redirect, which is not followed."),
        ),
        Ok(status) => (Some(status), format!("HTTP {status}")),
        Err(error) => (None, error),
    };
    let error: String = error.chars().take(ERROR_CHARS).collect();
    match usize::try_from(attempt - 1)
        .ok()
        .and_then(|i| BACKOFF_SECS.get(i))
    {
        Some(wait) => Outcome::Retry {
            status,
            error,
            next_at: now_ms + wait * 1000,
        },
        None => Outcome::Failed { status, error },
    }
}

/// The receiver's status code, or why there is none.
async fn send(
    target: &Target<'_>,
    id: &str,
    event: &str,
    body: &str,
    now_ms: i64,
) -> Result<i64, String> {
    let url = guard::parse(target.url)?;
    let vetted = guard::vet(&url, target.allow_private).await?;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(ATTEMPT_TIMEOUT)
        .connect_timeout(Duration::from_secs(5))
        .resolve(&vetted.host, vetted.address)
        .user_agent("mg-status-webhooks")
        .build()
        .map_err(|_| "The HTTP client could not be built.".to_owned())?;
    let signed = sign(target.secret, now_ms.div_euclid(1000), body);
    let response = client
        .post(vetted.url)
        .header("content-type", "application/json")
        .header("x-mg-delivery", id)
        .header("x-mg-event", event)
        .header("x-mg-timestamp", &signed.timestamp)
        .header("x-mg-signature", &signed.signature)
        .body(body.to_owned())
        .send()
        .await
        .map_err(|error| describe(&error))?;
    Ok(i64::from(response.status().as_u16()))
}

/// A transport error in words, without the URL (which may hold a token).
fn describe(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        format!("No answer within {} s.", ATTEMPT_TIMEOUT.as_secs())
    } else if error.is_connect() {
        "The receiver could not be reached (connection failed).".into()
    } else {
        "The request failed before an answer came.".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_hmac_sha256_of_timestamp_dot_body() {
        let secret = mg_platform::hex::encode(b"Jefe");
        let signed = sign(&secret, 1_700_000_000, "{\"a\":1}");
        assert_eq!(signed.timestamp, "1700000000");
        let key = hmac::Key::new(hmac::HMAC_SHA256, b"Jefe");
        let expected = hmac::sign(&key, b"1700000000.{\"a\":1}");
        assert_eq!(
            signed.signature,
            format!("sha256={}", mg_platform::hex::encode(expected.as_ref()))
        );
        assert_ne!(sign(&secret, 1_700_000_001, "{\"a\":1}"), signed);
    }
}
