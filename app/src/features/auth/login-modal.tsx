// 'Choose Login Method': the six social providers; the login machine decides loading, disabled and messages.
import { useCallback, useState } from "react";
import { useSession } from "../../lib/session/session-context";
import { type OAuthStartAnswer, useLogin } from "../../lib/wasm/use-login";
import { Modal } from "./modal";
import { ProviderIcon } from "./provider-icons";

export interface LoginModalProps {
  onClose: () => void;
  /** Opens the OAuth setup guide (offered from the localhost banner). */
  onOpenGuide?: () => void;
  /** Injected in tests; defaults to the identity SDK's OAuth start. */
  startOAuth?: (provider: string, redirectUrl: string) => Promise<OAuthStartAnswer>;
  redirect?: (url: string) => void;
}

function onLocalhost(): boolean {
  if (typeof window === "undefined") return false;
  const host = window.location.hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

export function LoginModal({ onClose, onOpenGuide, startOAuth, redirect }: LoginModalProps) {
  const { ensureIdentity } = useSession();
  const viaSdk = useCallback(
    async (provider: string, redirectUrl: string) => {
      const identity = await ensureIdentity();
      if (!identity) throw new Error("The identity SDK is not available");
      return identity.startOAuth(provider, redirectUrl);
    },
    [ensureIdentity],
  );
  const login = useLogin({ startOAuth: startOAuth ?? viaSdk, redirect });
  const [local] = useState(onLocalhost);
  const { loading, error } = login.snapshot;

  return (
    <Modal title="Choose Login Method" onClose={onClose} className="modal--login">
      {local && (
        <div className="auth-banner auth-banner--warn" role="note">
          <strong>Running on localhost.</strong> Hosted OAuth providers only send people back to
          redirect URLs they allow: add <code>{window.location.origin}/auth/callback</code> to the
          identity project's approved redirects, or sign in through the local identity emulator.
          {onOpenGuide && (
            <>
              {" "}
              <button type="button" className="link-button" onClick={onOpenGuide}>
                Open the setup guide
              </button>
            </>
          )}
        </div>
      )}
      <ul className="provider-list">
        {login.providers.map((provider) => {
          const isLoading = loading === provider.id;
          return (
            <li key={provider.id}>
              <button
                type="button"
                className="provider-button"
                data-provider={provider.id}
                disabled={login.isDisabled(provider.id)}
                aria-busy={isLoading}
                onClick={() => login.choose(provider.id)}
              >
                <span className="provider-button__icon">
                  {isLoading ? (
                    <span className="spinner" aria-hidden="true" />
                  ) : (
                    <ProviderIcon provider={provider.id} />
                  )}
                </span>
                <span>
                  {isLoading
                    ? `Connecting to ${provider.label}...`
                    : `Continue with ${provider.label}`}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      <p className="modal__fine">
        New here? Choosing a provider creates your account on first sign-in.
      </p>
    </Modal>
  );
}
