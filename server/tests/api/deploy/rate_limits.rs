//! Behind nginx: one rate allowance per client across two instances, no spoofed client address,
//! HSTS only over TLS.

use super::*;
use crate::helpers::header;

async fn post_wisdom(client: &reqwest::Client, base: &str, spoof: bool) -> reqwest::Response {
    let mut request = client
        .post(format!("{base}/api/wisdom"))
        .header("content-type", "application/json")
        .body("{}");
    if spoof {
        request = request
            .header("x-forwarded-for", "127.0.0.9")
            .header("forwarded", "for=127.0.0.9")
            .header("x-real-ip", "127.0.0.9");
    }
    request.send().await.expect("the proxy answers")
}

/// `count` wisdom requests from `client` one after another: their statuses, and how many more
/// than the burst the configured rate may have let through while they ran (`per_minute`).
async fn wisdom_burst(
    client: &reqwest::Client,
    base: &str,
    count: usize,
    per_minute: u32,
) -> (Vec<u16>, usize) {
    let started = Instant::now();
    let mut statuses = Vec::new();
    for _ in 0..count {
        statuses.push(post_wisdom(client, base, false).await.status().as_u16());
    }
    let refills = started.elapsed().as_secs_f64() * f64::from(per_minute) / 60.0;
    (statuses, refills as usize)
}

#[tokio::test]
async fn behind_nginx_a_client_gets_one_allowance_across_two_instances_none_can_spoof_and_hsts_follows_tls(
) {
    let Some(nginx) = nginx_binary() else {
        return;
    };
    let app = shared_database().await;
    // 8 per minute on each instance and at the proxy: a burst of 2, then one more every 7.5 s.
    // Without the proxy's limit a client would get 2 per instance, 4 in all.
    let (_a, first) = start_instance(&app, 8).await;
    let (_b, second) = start_instance(&app, 8).await;
    let proxy = start_proxy(&nginx, &[&first, &second], 8).await;
    let alice = client_from([127, 0, 0, 2]);
    let bob = client_from([127, 0, 0, 3]);

    // TLS ended at nginx: HSTS. Plain HTTP is only a redirect to HTTPS.
    let response = get_answering(&alice, &format!("{}/health", proxy.https), 200).await;
    assert!(
        response.headers().contains_key("strict-transport-security"),
        "{:?}",
        response.headers()
    );
    let response = get_answering(&alice, &format!("{}/health", proxy.http), 301).await;
    assert!(header(&response, "location").starts_with("https://"));
    // Straight to an instance from an address that is not a trusted proxy, the same claim of
    // TLS is not believed.
    let response = alice
        .get(format!("{first}/health"))
        .header("x-forwarded-proto", "https")
        .send()
        .await
        .expect("answer");
    assert!(!response.headers().contains_key("strict-transport-security"));

    // Alice's allowance through nginx is the configured one, though nginx alternates between
    // two instances that each would have let her through twice.
    let (statuses, refills) = wisdom_burst(&alice, &proxy.https, 8, 8).await;
    let passed = statuses.iter().filter(|s| **s == 200).count();
    assert_eq!(statuses[..2], [200, 200], "{statuses:?}");
    assert!(passed <= 2 + refills, "{statuses:?}, {refills} refills");
    assert_eq!(statuses[statuses.len() - 1], 429, "{statuses:?}");
    // nginx's 429 is the server's: the same JSON, with Retry-After (7.5 s to the next request).
    let from_proxy = post_wisdom(&alice, &proxy.https, false).await;
    assert_eq!(from_proxy.status(), 429);
    assert_eq!(from_proxy.headers()["retry-after"], "8");
    assert_eq!(from_proxy.headers()["content-type"], "application/json");
    let from_proxy: Value = from_proxy.json().await.expect("JSON");
    let direct = client_from([127, 0, 0, 4]);
    let (statuses, _) = wisdom_burst(&direct, &first, 3, 8).await;
    assert_eq!(statuses[2], 429, "{statuses:?}");
    let from_server = post_wisdom(&direct, &first, false).await;
    assert!(from_server.headers().contains_key("retry-after"));
    let from_server: Value = from_server.json().await.expect("JSON");
    assert_eq!(from_proxy, from_server);
    // Bob, behind the same proxy, has the whole allowance of his own.
    let (statuses, refills) = wisdom_burst(&bob, &proxy.https, 4, 8).await;
    assert_eq!(statuses[..2], [200, 200], "{statuses:?}");
    assert!(
        statuses.iter().filter(|s| **s == 200).count() <= 2 + refills,
        "{statuses:?}"
    );
    // The proxy does not hand out the instances' metrics.
    get_answering(&alice, &format!("{}/metrics", proxy.https), 404).await;
    proxy.stop();

    // The instances' own limiters stay as the second line: behind a proxy that does not limit,
    // each instance still keeps Alice's bucket by her forwarded address (one token left on each).
    let open_proxy = start_proxy(&nginx, &[&first, &second], 1_000_000).await;
    let mut statuses = Vec::new();
    while statuses.last() != Some(&429) && statuses.len() < 8 {
        statuses.push(
            post_wisdom(&alice, &open_proxy.https, false)
                .await
                .status()
                .as_u16(),
        );
    }
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    // Claiming another address through the proxy does not give her a new bucket.
    for _ in 0..4 {
        let response = post_wisdom(&alice, &open_proxy.https, true).await;
        assert_eq!(response.status(), 429);
        assert!(response.headers().contains_key("retry-after"));
        let body: Value = response.json().await.expect("JSON");
        assert_eq!(body["code"], "rate_limited");
    }
    // Nor does a byte that is not text in X-Forwarded-For: before, the whole header was
    // unreadable and she counted as nginx itself (a fresh bucket, the proxy's privileges).
    for _ in 0..2 {
        let response = alice
            .post(format!("{}/api/wisdom", open_proxy.https))
            .header("content-type", "application/json")
            .header(
                "x-forwarded-for",
                reqwest::header::HeaderValue::from_bytes(b"\xff").expect("obs-text"),
            )
            .body("{}")
            .send()
            .await
            .expect("the proxy answers");
        assert_eq!(
            response.status(),
            429,
            "junk in X-Forwarded-For is still Alice"
        );
    }
    // Bob's buckets on the instances are his own.
    assert_eq!(
        post_wisdom(&bob, &open_proxy.https, false).await.status(),
        200
    );
    open_proxy.stop();
    if app.database_url.starts_with("postgres") {
        crate::helpers::drop_postgres_database(&app.database_url).await;
    }
}
