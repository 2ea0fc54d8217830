import { useMachineStore } from "mg-core/react";
import { useCallback, useEffect } from "react";
import type { Theme, ThemeMachine } from "./core";
import { type Core, loadedCore, whenCoreLoaded, withCore } from "./load-core";

export type { Theme };

function readStored(key: string): string | undefined {
  try {
    return window.localStorage.getItem(key) ?? undefined;
  } catch {
    // Storage can be blocked (privacy settings); the theme then lives for this page only.
    return undefined;
  }
}

function apply(key: string, theme: string): void {
  document.documentElement.dataset.theme = theme;
  try {
    window.localStorage.setItem(key, theme);
  } catch {
    // See readStored.
  }
}

/** The local-storage key the machine names. */
const storageKey = (core: Core): string => core.ThemeMachine.storageKey();

/**
 * The page's theme, owned by the wasm ThemeMachine: read at start, toggled, persisted, synced across tabs.
 *
 * The inline script in index.html applies the stored theme before first paint (the page's
 * `data-theme`, which CSS reads), so this hook does not download the wasm for it: the machine is
 * made as soon as the core is there (pages that run machines load it anyway), or when the visitor
 * toggles or another tab changes the theme. `theme` is the machine's, undefined until it exists: the
 * reading rule (what a stored value means) is the machine's alone, and the script's copy of it is
 * checked against it (theme-script.test.ts).
 */
export function useTheme(): { theme: Theme | undefined; toggle: () => void } {
  const { snapshot: theme, store } = useMachineStore({
    onDemand: true,
    create: (): ThemeMachine => {
      // Made only once the core is loaded (see the effect and `toggle` below).
      const core = loadedCore() as Core;
      return new core.ThemeMachine(readStored(storageKey(core)));
    },
    read: (machine): Theme | undefined => machine.theme,
    initial: () => undefined,
    // What is stored now, which another tab may have changed since index.html's script read it.
    start: (machine) => {
      document.documentElement.dataset.theme = machine.theme;
    },
  });

  useEffect(() => {
    const cancel = whenCoreLoaded(() => store.open());
    const onStorage = (event: StorageEvent) =>
      withCore((core) => {
        if (event.key !== storageKey(core)) return;
        const next = store.act((machine) => machine.sync(event.newValue ?? undefined));
        if (next) document.documentElement.dataset.theme = next;
      });
    window.addEventListener("storage", onStorage);
    return () => {
      cancel();
      window.removeEventListener("storage", onStorage);
    };
  }, [store]);

  const toggle = useCallback(
    () =>
      withCore((core) => {
        const next = store.act((machine) => machine.toggle());
        if (next) apply(storageKey(core), next);
      }),
    [store],
  );

  return { theme, toggle };
}
