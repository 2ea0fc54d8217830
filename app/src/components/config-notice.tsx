// The full-screen notice that replaces every screen when sanctified mode has no identity project (spec 2.1).
import "./config-notice.css";

export function ConfigNotice() {
  return (
    <main id="main" className="config-notice">
      <section className="config-notice__panel" aria-labelledby="config-notice-title">
        <p className="config-notice__icon" aria-hidden="true">
          ⚠
        </p>
        <h1 id="config-notice-title">Authentication Configuration Required</h1>
        <p>
          Sanctified mode is enabled, but authentication is not configured: this deployment has no
          identity project ID, so nobody could sign in.
        </p>
        <h2 className="config-notice__steps-title">To finish the setup</h2>
        <ol className="config-notice__steps">
          <li>
            Set the identity project ID in the deployment environment (
            <code>IDENTITY_PROJECT_ID</code> for the server, or{" "}
            <code>VITE_IDENTITY_PROJECT_ID</code> for a static build).
          </li>
          <li>
            Configure the chat-platform (Discord) OAuth provider in the identity provider's console.
          </li>
          <li>Redeploy the application.</li>
        </ol>
      </section>
    </main>
  );
}
