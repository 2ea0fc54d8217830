// The page's theme. The wasm ThemeMachine owns it (lib/wasm/use-theme.ts), but that hook, and the
// machine store it runs on, come with the wasm core rather than with every page's first load: the
// machine's owner (theme-owner.tsx) is its own chunk, mounted once some page has loaded the core, or
// when the visitor first toggles or another tab changes the storage. Until then the inline script in
// index.html has applied the stored theme, and a toggle waits for the owner.
import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { loadCore, whenCoreLoaded } from "../lib/wasm/load-core";

const ThemeOwner = lazy(() => import("./theme-owner"));

type ThemeContextValue = { toggle: () => void };

const ThemeContext = createContext<ThemeContextValue | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [owned, setOwned] = useState(false);
  const ownerToggle = useRef<(() => void) | null>(null);
  // Toggles asked for before the owner was there, applied in order when it comes.
  const waiting = useRef(0);

  useEffect(() => {
    const cancel = whenCoreLoaded(() => setOwned(true));
    // Another tab changed the storage before the owner was here: the owner, once made, applies the
    // theme stored now.
    const onStorage = () => {
      if (ownerToggle.current) return;
      setOwned(true);
      void loadCore();
    };
    window.addEventListener("storage", onStorage);
    return () => {
      cancel();
      window.removeEventListener("storage", onStorage);
    };
  }, []);

  const toggle = useCallback(() => {
    if (ownerToggle.current) {
      ownerToggle.current();
      return;
    }
    waiting.current += 1;
    setOwned(true);
    // The core downloads beside the owner's chunk rather than after it.
    void loadCore();
  }, []);

  // What the owner hands over: its toggle while it is mounted, null when it goes.
  const register = useCallback((owner: (() => void) | null) => {
    ownerToggle.current = owner;
    for (; owner && waiting.current > 0; waiting.current -= 1) owner();
  }, []);

  const value = useMemo(() => ({ toggle }), [toggle]);
  return (
    <ThemeContext.Provider value={value}>
      {children}
      {owned && (
        <Suspense fallback={null}>
          <ThemeOwner register={register} />
        </Suspense>
      )}
    </ThemeContext.Provider>
  );
}

export function useThemeContext(): ThemeContextValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error("useThemeContext must be used inside ThemeProvider");
  return value;
}
