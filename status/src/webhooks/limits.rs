//! The webhooks' bounds and timings, in one place: how many, how long, how often.

use mg_platform::time::DAY_MS;

/// Live webhooks at most.
pub const MAX_WEBHOOKS: i64 = 20;
/// Longest webhook URL.
pub const MAX_URL_CHARS: usize = 2_000;
/// Longest webhook name.
pub const MAX_NAME_CHARS: usize = 100;
// A webhook's URL and name, escaped at their longest, fit the request body cap.
const _: () = assert!(
    mg_platform::extract::body_limit_for(MAX_URL_CHARS + MAX_NAME_CHARS)
        <= mg_platform::extract::BODY_LIMIT_BYTES
);
/// The delivery log's rows in an answer.
pub const DELIVERIES_READ: i64 = 200;
/// Deliveries are deleted this long after they were added.
pub const DELIVERY_RETENTION_MS: i64 = 7 * DAY_MS;
/// Finished deliveries kept at most (the newest); pending ones are kept until they end.
pub const DELIVERIES_KEPT: i64 = 10_000;
/// Waits before the second, third... attempt (seconds): 10 attempts over 94 minutes, then failed.
pub const BACKOFF_SECS: [i64; 9] = [10, 30, 60, 120, 300, 600, 900, 1_800, 1_800];
/// How long a claimed delivery is this instance's: an attempt takes at most
/// `sender::ATTEMPT_TIMEOUT`, the host's lookup five seconds more.
pub const LEASE_MS: i64 = 30_000;
