import type { UpdateProfileRequest, UserAnswer } from "@common/http-types";
import { paths } from "@common/routes";
import { type MachineStore, useMachineStore } from "mg-core/react";
import { useRef } from "react";
import { ApiError, apiCall } from "../api-client";
import { SIGN_IN_STATE_PARAM, takeSignInState } from "../sign-in-state";
import {
  AuthCallbackMachine,
  type CallbackDestination,
  type CallbackEffect,
  type CallbackSnapshot,
  type ExchangeOutcome,
  type IdentityUser,
} from "./core";

/** The identity SDK's exchange answer (Descope: `sdk.oauth.exchange(code)`). */
export interface ExchangeAnswer {
  ok: boolean;
  data?: { user?: IdentityUser | null } | null;
  error?: {
    errorCode?: string;
    errorDescription?: string;
    errorMessage?: string;
    message?: string;
  } | null;
  message?: string;
}

export interface AuthCallbackOptions {
  /** The page's query string (`location.search`). */
  search: string;
  /** Injected identity SDK operation: @descope/web-js-sdk in the app, a stand-in in tests. */
  exchange: (code: string) => Promise<ExchangeAnswer>;
  navigate: (to: string, options?: { replace?: boolean }) => void;
  /** Defaults to the page's hostname being localhost or 127.0.0.1. */
  onLocalhost?: boolean;
  /**
   * Takes (reads and removes) the state this browser stored when it started the sign-in; called
   * once per page. Defaults to the tab's sessionStorage (`takeSignInState`).
   */
  takeState?: () => string | null;
}

function isLocalhost(): boolean {
  const host = window.location.hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function outcomeOf(answer: ExchangeAnswer): ExchangeOutcome {
  return {
    ok: Boolean(answer?.ok),
    user: answer?.data?.user ?? null,
    errorCode: answer?.error?.errorCode ?? null,
    message:
      answer?.error?.message ??
      answer?.message ??
      answer?.error?.errorDescription ??
      answer?.error?.errorMessage ??
      null,
  };
}

/**
 * The path of the page the machine sends people to, from the page catalogue: the signed-in home, or
 * the landing page with `?error=` saying why the sign-in failed.
 */
export function destinationPath(to: CallbackDestination): string {
  return to.page === "home" ? paths.dashboard : `${paths.landing}?error=${to.error}`;
}

type CallbackStore = MachineStore<AuthCallbackMachine, CallbackSnapshot>;

const INITIAL: CallbackSnapshot = {
  phase: "idle",
  message: null,
  showHelp: false,
  redirectTo: null,
};

/**
 * The /auth/callback page: checks the state, exchanges the code, reads the user, updates the profile
 * and goes to the signed-in home, or shows the spec's message (with help, or a redirect after 3 s). Gives up after
 * 10 s.
 */
export function useAuthCallback(options: AuthCallbackOptions): CallbackSnapshot {
  // The stored state is taken once per page and kept here: taking it removes it, and React's
  // StrictMode makes the machine twice on one page.
  const expectedState = useRef<string | null | undefined>(undefined);

  const { snapshot } = useMachineStore({
    create: () => new AuthCallbackMachine(options.onLocalhost ?? isLocalhost()),
    read: (machine): CallbackSnapshot => machine.snapshot(),
    initial: () => INITIAL,
    // The page is visited once per sign-in: the flow starts once per machine.
    start: (machine, store) => {
      if (expectedState.current === undefined)
        expectedState.current = (options.takeState ?? takeSignInState)();
      const query = new URLSearchParams(options.search);
      const error = query.get("error_description") ?? query.get("error") ?? undefined;
      perform(
        store,
        machine,
        machine.start(
          query.get("code") ?? undefined,
          error,
          query.get(SIGN_IN_STATE_PARAM) ?? undefined,
          expectedState.current ?? undefined,
          Date.now(),
        ),
      );
    },
    due: (machine, now, store) => perform(store, machine, machine.tick(now)),
  });

  // Performs one effect and feeds its result back, until the machine asks for nothing more.
  const perform = (
    store: CallbackStore,
    machine: AuthCallbackMachine,
    effect: CallbackEffect | undefined,
  ): void => {
    const next = (follow: (owned: AuthCallbackMachine) => CallbackEffect | undefined) =>
      store.answer(machine, (owned) => perform(store, owned, follow(owned)));
    if (!effect) return;
    switch (effect.kind) {
      case "navigate":
        options.navigate(destinationPath(effect.to), { replace: true });
        return;
      case "exchange":
        options.exchange(effect.code).then(
          (answer) => next((owned) => owned.exchanged(outcomeOf(answer), Date.now())),
          (error) =>
            store.answer(machine, (owned) => owned.exchangeThrew(messageOf(error), Date.now())),
        );
        return;
      case "readUser":
        apiCall<Partial<UserAnswer> | null>("/api/auth/current-user", {
          method: "POST",
          auth: true,
        }).then(
          (answer) => next((owned) => owned.userRead(answer?.data?.name ?? undefined)),
          (error) =>
            store.answer(machine, (owned) => owned.stepFailed(messageOf(error), Date.now())),
        );
        return;
      case "updateProfile":
        apiCall("/api/auth/update-profile", {
          method: "POST",
          // The wasm core's payload type (tsify) checked against the server's (ts-rs).
          body: effect.payload satisfies UpdateProfileRequest,
          auth: true,
        }).then(
          () => next((owned) => owned.profileUpdated()),
          (error) => {
            const message = error instanceof ApiError ? error.message : messageOf(error);
            store.answer(machine, (owned) => owned.stepFailed(message, Date.now()));
          },
        );
        return;
    }
  };

  return snapshot;
}
