import { useCallback, useEffect, useRef, useState } from "react";
import type { Theme, ThemeMachine } from "./core";
import { type Core, loadCore, loadedCore, whenCoreLoaded } from "./load-core";

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

/** The live machine and the local-storage key it names. */
type Owned = { machine: ThemeMachine; key: string };

/**
 * The page's theme, owned by the wasm ThemeMachine: read at start, toggled, persisted, synced across tabs.
 *
 * The inline script in index.html applies the stored theme before first paint (the page's
 * `data-theme`, which CSS reads), so this hook does not download the wasm for it: the machine is
 * created as soon as the core is there (pages that run machines load it anyway), or when the visitor
 * toggles or another tab changes the theme. `theme` is the machine's, undefined until it exists: the
 * reading rule (what a stored value means) is the machine's alone, and the script's copy of it is
 * checked against it (theme-script.test.ts).
 */
export function useTheme(): { theme: Theme | undefined; toggle: () => void } {
  const owned = useRef<Owned | null>(null);
  // Creates the machine (once) while mounted; null otherwise.
  const ensure = useRef<((core: Core) => Owned | null) | null>(null);
  const [theme, setTheme] = useState<Theme | undefined>(undefined);

  useEffect(() => {
    ensure.current = (core) => {
      if (!owned.current) {
        const key = core.ThemeMachine.storageKey();
        const machine = new core.ThemeMachine(readStored(key));
        owned.current = { machine, key };
        setTheme(machine.theme);
      }
      return owned.current;
    };
    const cancel = whenCoreLoaded((core) => ensure.current?.(core));
    const onStorage = (event: StorageEvent) => {
      const follow = (core: Core) => {
        const current = ensure.current?.(core);
        if (!current || event.key !== current.key) return;
        const next = current.machine.sync(event.newValue ?? undefined);
        document.documentElement.dataset.theme = next;
        setTheme(next);
      };
      const core = loadedCore();
      if (core) follow(core);
      else void loadCore().then(follow);
    };
    window.addEventListener("storage", onStorage);
    return () => {
      cancel();
      window.removeEventListener("storage", onStorage);
      ensure.current = null;
      owned.current?.machine.free();
      owned.current = null;
    };
  }, []);

  const toggle = useCallback(() => {
    const flip = (current: Owned) => {
      const next = current.machine.toggle();
      apply(current.key, next);
      setTheme(next);
    };
    if (owned.current) {
      flip(owned.current);
      return;
    }
    void loadCore().then((core) => {
      const current = ensure.current?.(core);
      if (current) flip(current);
    });
  }, []);

  return { theme, toggle };
}
