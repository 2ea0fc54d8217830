import { createContext, type ReactNode, useContext } from "react";
import { type Theme, useTheme } from "../lib/wasm/use-theme";

type ThemeContextValue = { theme: Theme | undefined; toggle: () => void };

const ThemeContext = createContext<ThemeContextValue | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const value = useTheme();
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useThemeContext(): ThemeContextValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error("useThemeContext must be used inside ThemeProvider");
  return value;
}
