import { useCallback, useMemo } from "react";
import { callbackUrl, newSignInState } from "../sign-in-state";
import { LoginMachine, type LoginProvider, type LoginSnapshot } from "./core";
import { useMachine } from "./use-machine";

/** The identity SDK's "start OAuth" answer (Descope: `sdk.oauth.start(provider, redirectUrl)`). */
export interface OAuthStartAnswer {
  ok: boolean;
  data?: { url?: string } | null;
  error?: unknown;
}

export interface LoginOptions {
  /** Injected identity SDK operation: @descope/web-js-sdk in the app, a stand-in in tests. */
  startOAuth: (provider: string, redirectUrl: string) => Promise<OAuthStartAnswer>;
  /** Sends the browser to the provider (default: `window.location.assign`). */
  redirect?: (url: string) => void;
}

export interface Login {
  providers: LoginProvider[];
  snapshot: LoginSnapshot;
  isDisabled: (provider: string) => boolean;
  choose: (provider: string) => void;
}

/** The login modal's providers: one loads, the others are disabled, failures name the provider. */
export function useLogin({ startOAuth, redirect }: LoginOptions): Login {
  const providers = useMemo(() => LoginMachine.providers(), []);
  const { machine, snapshot, sync } = useMachine(
    () => new LoginMachine(),
    (owned) => owned.snapshot(),
    { loading: null, error: null } satisfies LoginSnapshot,
  );

  const choose = useCallback(
    (provider: string) => {
      const owned = machine.current;
      if (!owned?.choose(provider)) return;
      sync();
      const go = redirect ?? ((url: string) => window.location.assign(url));
      // The callback exchanges a code only when it carries this state back (docs/identity.md).
      let state: string;
      try {
        state = newSignInState();
      } catch {
        owned.startThrew();
        sync();
        return;
      }
      startOAuth(provider, callbackUrl(window.location.origin, state)).then(
        (answer) => {
          if (machine.current !== owned) return;
          const url = owned.started(Boolean(answer?.ok), answer?.data?.url ?? undefined);
          sync();
          if (url) go(url);
        },
        () => {
          if (machine.current !== owned) return;
          owned.startThrew();
          sync();
        },
      );
    },
    [machine, sync, startOAuth, redirect],
  );

  // The loading provider is in the snapshot, so deriving from it keeps renders consistent.
  const isDisabled = useCallback(
    (provider: string) => snapshot.loading !== null && snapshot.loading !== provider,
    [snapshot.loading],
  );

  return { providers, snapshot, isDisabled, choose };
}
