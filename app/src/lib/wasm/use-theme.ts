import { useCallback, useEffect, useRef, useState } from "react";
import { ThemeMachine } from "./core";

export type Theme = "cosmic" | "void";

const STORAGE_KEY = ThemeMachine.storageKey();

function readStored(): string | undefined {
  try {
    return window.localStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    // Storage can be blocked (privacy settings); the theme then lives for this page only.
    return undefined;
  }
}

function apply(theme: string): void {
  document.documentElement.dataset.theme = theme;
  try {
    window.localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // See readStored.
  }
}

/** The page's theme, owned by the wasm ThemeMachine: read at start, toggled, persisted, synced across tabs. */
export function useTheme(): { theme: Theme; toggle: () => void } {
  const machine = useRef<ThemeMachine | null>(null);
  // The inline script in index.html has already applied the stored theme before first paint.
  const [theme, setTheme] = useState<Theme>(() =>
    typeof document !== "undefined" && document.documentElement.dataset.theme === "void"
      ? "void"
      : "cosmic",
  );

  useEffect(() => {
    const owned = new ThemeMachine(readStored());
    machine.current = owned;
    setTheme(owned.theme as Theme);
    const onStorage = (event: StorageEvent) => {
      if (event.key !== STORAGE_KEY) return;
      const next = owned.sync(event.newValue ?? undefined) as Theme;
      document.documentElement.dataset.theme = next;
      setTheme(next);
    };
    window.addEventListener("storage", onStorage);
    return () => {
      window.removeEventListener("storage", onStorage);
      machine.current = null;
      owned.free();
    };
  }, []);

  const toggle = useCallback(() => {
    const owned = machine.current;
    if (!owned) return;
    const next = owned.toggle() as Theme;
    apply(next);
    setTheme(next);
  }, []);

  return { theme, toggle };
}
