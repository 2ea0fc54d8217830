import { useMachineStore } from "mg-core/react";
import { useCallback, useMemo } from "react";
import { callbackUrl, newSignInState } from "../sign-in-state";
import { LoginMachine, type LoginProvider, type LoginSnapshot } from "./core";

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

const NOTHING_CHOSEN: LoginSnapshot = { loading: null, error: null };

/** The login modal's providers: one loads, the others are disabled, failures name the provider. */
export function useLogin({ startOAuth, redirect }: LoginOptions): Login {
  const providers = useMemo(() => LoginMachine.providers(), []);
  const { snapshot, store } = useMachineStore({
    create: () => new LoginMachine(),
    read: (machine): LoginSnapshot => machine.snapshot(),
    initial: () => NOTHING_CHOSEN,
  });

  const choose = useCallback(
    (provider: string) => {
      const machine = store.open();
      if (!machine?.choose(provider)) return;
      store.sync();
      const go = redirect ?? ((url: string) => window.location.assign(url));
      // The callback exchanges a code only when it carries this state back (docs/identity.md).
      let state: string;
      try {
        state = newSignInState();
      } catch {
        store.act((owned) => owned.startThrew());
        return;
      }
      startOAuth(provider, callbackUrl(window.location.origin, state)).then(
        (answer) => {
          const url = store.answer(machine, (owned) =>
            owned.started(Boolean(answer?.ok), answer?.data?.url ?? undefined),
          );
          if (url) go(url);
        },
        () => store.answer(machine, (owned) => owned.startThrew()),
      );
    },
    [store, startOAuth, redirect],
  );

  // The loading provider is in the snapshot, so deriving from it keeps renders consistent.
  const isDisabled = useCallback(
    (provider: string) => snapshot.loading !== null && snapshot.loading !== provider,
    [snapshot.loading],
  );

  return { providers, snapshot, isDisabled, choose };
}
