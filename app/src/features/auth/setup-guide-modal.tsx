// The OAuth setup guide: how to configure the hosted identity provider and Discord, and how to test locally.
import { type KeyboardEvent, useId, useRef, useState } from "react";
import { identityConfig } from "../../config/env";
import { LoginMachine } from "../../lib/wasm/core";
import { Modal } from "./modal";

/** Where the hosted provider receives every social provider's answer; OAuth apps must allow it. */
export const HOSTED_OAUTH_CALLBACK = "https://api.descope.com/v1/oauth/callback";

const tabs = [
  { id: "overview", label: "Overview" },
  { id: "identity", label: "Identity-provider Setup" },
  { id: "chat", label: "Chat-platform Setup" },
  { id: "testing", label: "Testing" },
] as const;

type TabId = (typeof tabs)[number]["id"];

function origin(): string {
  return typeof window === "undefined" ? "" : window.location.origin;
}

function Overview() {
  return (
    <>
      <p>
        Sign-in goes through a hosted identity provider (Descope) with social OAuth. The app never
        sees a password or a provider secret:
      </p>
      <ol>
        <li>The app asks the identity provider to start OAuth for the chosen provider.</li>
        <li>
          The browser visits the provider (Discord, Google, ...). The provider sends the answer to
          the identity provider's own callback, <code>{HOSTED_OAUTH_CALLBACK}</code>.
        </li>
        <li>
          The identity provider sends the browser back to this app at{" "}
          <code>{origin()}/auth/callback</code> with a one-time code.
        </li>
        <li>
          The app exchanges the code for a session token; the API checks that token against the
          identity provider's published keys.
        </li>
      </ol>
      <p>
        This deployment talks to the identity service at <code>{identityConfig.baseUrl}</code> with
        project <code>{identityConfig.projectId ?? "(not set)"}</code>.
      </p>
    </>
  );
}

function IdentitySetup() {
  return (
    <>
      <ol>
        <li>
          Create a project in the Descope console (<code>https://app.descope.com</code>) and copy
          its Project ID from Project Settings.
        </li>
        <li>
          Under Authentication Methods, open Social Login (OAuth) and enable the providers you want:{" "}
          {LoginMachine.providers()
            .map((provider) => provider.label)
            .join(", ")}
          .
        </li>
        <li>
          Under Project Settings, add this site's domain to the approved domains so the identity
          provider may redirect to <code>{origin()}/auth/callback</code>.
        </li>
        <li>
          Give the deployment the project: <code>IDENTITY_PROJECT_ID=&lt;project id&gt;</code> and{" "}
          <code>IDENTITY_BASE_URL=https://api.descope.com</code> for the server (a static build uses{" "}
          <code>VITE_IDENTITY_PROJECT_ID</code> and <code>VITE_IDENTITY_BASE_URL</code>), then
          redeploy.
        </li>
      </ol>
      <p>
        The identity provider's callback address, which every social provider must allow, is{" "}
        <code>{HOSTED_OAUTH_CALLBACK}</code>.
      </p>
    </>
  );
}

function ChatSetup() {
  return (
    <>
      <ol>
        <li>
          Open the Discord Developer Portal (
          <code>https://discord.com/developers/applications</code>) and create a New Application.
        </li>
        <li>In its OAuth2 page, copy the Client ID and reset and copy the Client Secret.</li>
        <li>
          Under OAuth2 Redirects, add the identity provider's callback (not this app's):{" "}
          <code>{HOSTED_OAUTH_CALLBACK}</code>.
        </li>
        <li>
          In the Descope console, open Social Login, choose Discord, switch to your own OAuth app,
          paste the Client ID and Client Secret, keep the scopes <code>identify</code> and{" "}
          <code>email</code>, and save.
        </li>
      </ol>
      <p>
        If Discord is not enabled in the identity project, sign-in stops with "OAuth Provider
        Configuration Required - Discord may not be enabled in the identity provider".
      </p>
    </>
  );
}

function Testing() {
  return (
    <>
      <h3>Locally, with the identity emulator</h3>
      <p>
        Without <code>IDENTITY_PROJECT_ID</code> and <code>IDENTITY_BASE_URL</code>, the server runs
        a local identity emulator that speaks the same protocol. Run <code>make run</code>, open{" "}
        <code>http://localhost:3000</code>, choose Log in and a provider. The emulator's provider
        page (marked "local identity emulator") lets you type an e-mail, name and username and
        continue, or simulate a failure: provider not enabled, user must exist, or a provider-side
        error.
      </p>
      <h3>Against the hosted provider</h3>
      <ol>
        <li>Sign in with each provider you enabled; you should land on the dashboard (/home).</li>
        <li>Edit your display name on the dashboard and reload: the name and the session stay.</li>
        <li>
          If sign-in fails, the callback page offers Run Diagnostic: it checks the configuration,
          the identity service, this origin as a redirect, and the API.
        </li>
      </ol>
    </>
  );
}

const panels: Record<TabId, () => React.JSX.Element> = {
  overview: Overview,
  identity: IdentitySetup,
  chat: ChatSetup,
  testing: Testing,
};

export function SetupGuideModal({ onClose }: { onClose: () => void }) {
  const [active, setActive] = useState<TabId>("overview");
  const base = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const Panel = panels[active];

  // Arrow keys, Home and End move between tabs (WAI-ARIA tabs pattern, automatic activation).
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const to =
      event.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : undefined;
    if (to === undefined) return;
    event.preventDefault();
    setActive(tabs[to]?.id ?? "overview");
    buttons.current[to]?.focus();
  };

  return (
    <Modal title="OAuth Setup Guide" onClose={onClose} className="modal--guide">
      <div role="tablist" aria-label="Setup guide sections" className="guide-tabs">
        {tabs.map((tab, index) => (
          <button
            key={tab.id}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.id}`}
            aria-selected={active === tab.id}
            aria-controls={`${base}-panel`}
            tabIndex={active === tab.id ? 0 : -1}
            className="guide-tabs__tab"
            onClick={() => setActive(tab.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${base}-panel`}
        aria-labelledby={`${base}-tab-${active}`}
        className="guide-panel"
      >
        <Panel />
      </div>
    </Modal>
  );
}
