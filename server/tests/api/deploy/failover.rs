//! Behind nginx: one instance killed under write traffic loses no acknowledged update.

use super::*;

/// Each writer updates its own user's name in sequence; returns (last acknowledged, attempts after it).
async fn writer(
    client: reqwest::Client,
    base: String,
    token: String,
    writer: usize,
    done: Arc<AtomicUsize>,
    failures: Arc<AtomicUsize>,
    until: usize,
) -> (Option<String>, Vec<String>) {
    let mut acknowledged = None;
    let mut unacknowledged = Vec::new();
    let mut sequence = 0;
    while done.load(Ordering::SeqCst) < until {
        sequence += 1;
        let name = format!("Writer {writer} update {sequence}");
        let status = client
            .post(format!("{base}/api/auth/update-profile"))
            .bearer_auth(&token)
            .json(&json!({ "name": name }))
            .send()
            .await
            .map(|r| r.status().as_u16())
            .unwrap_or(0);
        if status == 200 {
            acknowledged = Some(name);
            unacknowledged.clear();
        } else {
            failures.fetch_add(1, Ordering::SeqCst);
            unacknowledged.push(name);
        }
        done.fetch_add(1, Ordering::SeqCst);
    }
    (acknowledged, unacknowledged)
}

#[tokio::test]
async fn behind_nginx_killing_one_instance_under_traffic_loses_no_acknowledged_update() {
    let Some(nginx) = nginx_binary() else {
        return;
    };
    let Some(app) = spawn_app_with(TestBackend::Postgres, |_| {}).await else {
        return;
    };
    let (mut doomed, first) = start_instance(&app, 1_000_000).await;
    let (_survivor, second) = start_instance(&app, 1_000_000).await;
    let proxy = start_proxy(&nginx, &[&first, &second], 1_000_000).await;
    let client = client_from([127, 0, 0, 2]);

    const WRITERS: usize = 8;
    const TOTAL: usize = 400;
    let done = Arc::new(AtomicUsize::new(0));
    let failures = Arc::new(AtomicUsize::new(0));
    let tokens: Vec<String> = (0..WRITERS)
        .map(|i| app.identity.session_token(&format!("writer-{i}")))
        .collect();
    let tasks: Vec<_> = tokens
        .iter()
        .enumerate()
        .map(|(i, token)| {
            tokio::spawn(writer(
                client.clone(),
                proxy.https.clone(),
                token.clone(),
                i,
                done.clone(),
                failures.clone(),
                TOTAL,
            ))
        })
        .collect();
    while done.load(Ordering::SeqCst) < TOTAL / 4 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    doomed.kill();
    let killed_at = done.load(Ordering::SeqCst);
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.expect("writer"));
    }
    // Only requests in flight when the instance died may fail (nginx does not repeat a POST it
    // already sent); every later one is served by the survivor.
    let failed = failures.load(Ordering::SeqCst);
    assert!(
        failed <= WRITERS,
        "{failed} failed updates (killed after {killed_at})"
    );
    for (i, (token, (acknowledged, unacknowledged))) in tokens.iter().zip(&outcomes).enumerate() {
        let user = crate::helpers::current_user_at(&client, &proxy.https, token).await;
        let stored = user["name"].as_str().unwrap_or_default().to_owned();
        let acknowledged = acknowledged.as_ref().expect("some update acknowledged");
        // The last acknowledged name, unless a later update (not acknowledged, in flight at the
        // kill) went through after all.
        assert!(
            &stored == acknowledged || unacknowledged.contains(&stored),
            "writer {i}: stored {stored:?}, last acknowledged {acknowledged:?}"
        );
    }
    for _ in 0..10 {
        get_answering(&client, &format!("{}/health", proxy.https), 200).await;
    }
    proxy.stop();
    crate::helpers::drop_postgres_database(&app.database_url).await;
}
