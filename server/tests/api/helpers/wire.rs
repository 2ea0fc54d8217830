//! Servers reached from outside a `TestApp`: the real binary on a port of its own, any server by its
//! address, and requests sent over a raw socket as written.

use serde_json::Value;

use super::TestApp;

/// A free TCP port on 127.0.0.1 (free when asked; the caller binds it soon after).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// Serves `router` on a free port of 127.0.0.1 until the test ends: its base URL,
/// `http://127.0.0.1:{port}` (the test doubles of the servers the server calls).
pub async fn serve(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a test server");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

/// The real `mg-server` binary set up like `app` (its database, build and identity provider),
/// listening on 127.0.0.1:`port`, with a small pool as every test server and its log at `warn`;
/// callers add (or override) their own variables, then spawn it.
pub fn server_command(app: &TestApp, port: u16) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_mg-server"));
    command
        .env("DATABASE_MAX_CONNECTIONS", "4")
        .env("RUST_LOG", "warn")
        .env("HOST", "127.0.0.1")
        .env("PORT", port.to_string())
        .env("DATA_DIR", app.data_dir.path())
        .env("DATABASE_URL", &app.database_url)
        .env("STATIC_DIR", app.data_dir.path().join("dist"))
        .env("IDENTITY_PROJECT_ID", &app.identity.project_id)
        .env("IDENTITY_BASE_URL", &app.identity.base_url);
    command
}

/// A child process (a `server_command` spawned) stopped with SIGKILL and reaped when dropped, so a
/// test that fails before it stops its server leaves none running.
pub struct Process(pub std::process::Child);

impl Process {
    /// SIGKILL, then waits for the process to end.
    pub fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `POST {base}/api/auth/current-user` with `token` through `client`, to any server (an instance
/// or a proxy in front of some), which must answer 200: the user (the answer's `data`).
pub async fn current_user_at(client: &reqwest::Client, base: &str, token: &str) -> Value {
    let response = client
        .post(format!("{base}/api/auth/current-user"))
        .bearer_auth(token)
        .json(&serde_json::json!({}))
        .send()
        .await
        .expect("answer");
    assert_eq!(response.status(), 200, "current-user at {base}");
    let body: Value = response.json().await.expect("JSON");
    body["data"].clone()
}

/// Waits (10 s at most) until the server at `base` answers `/health` with 200; false if it never
/// did.
pub async fn healthy_within_10_s(client: &reqwest::Client, base: &str) -> bool {
    for _ in 0..200 {
        if let Ok(response) = client.get(format!("{base}/health")).send().await {
            if response.status() == 200 {
                return true;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    false
}

/// Sends `request` to `app` as written, over a raw socket (an HTTP client would tidy it first), and
/// reads until the server closes the connection: the answer's status (0: none) and its text. The
/// server may answer (and close) before reading everything: a failed write is fine.
pub async fn raw_exchange(app: &TestApp, request: &[u8]) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut socket = tokio::net::TcpStream::connect(app.address.trim_start_matches("http://"))
        .await
        .expect("connect");
    let _ = socket.write_all(request).await;
    let mut answer = Vec::new();
    let _ = socket.read_to_end(&mut answer).await;
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (status, text)
}

/// POSTs `body` with `Transfer-Encoding: chunked` (so no declared length) over a raw socket, with
/// `Authorization: Bearer {bearer}`; the status and the JSON of the answer's body.
pub async fn chunked_post(app: &TestApp, path: &str, bearer: &str, body: &[u8]) -> (u16, String) {
    let address = app.address.trim_start_matches("http://");
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {bearer}\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    .into_bytes();
    for chunk in body.chunks(1024) {
        request.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        request.extend_from_slice(chunk);
        request.extend_from_slice(b"\r\n");
    }
    request.extend_from_slice(b"0\r\n\r\n");
    let (status, text) = raw_exchange(app, &request).await;
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    // A chunked answer body: take the JSON between the first '{' and the last '}'.
    let json = match (body.find('{'), body.rfind('}')) {
        (Some(start), Some(end)) => body[start..=end].to_owned(),
        _ => body.to_owned(),
    };
    (status, json)
}
