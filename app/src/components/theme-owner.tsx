// Owns the theme machine (useTheme) for the theme provider, which loads this chunk only once the wasm
// core is there or wanted: it renders nothing, and hands the provider its toggle.
import { useEffect } from "react";
import { useTheme } from "../lib/wasm/use-theme";

/** What the owner hands the provider: its toggle while it is mounted, null when it goes. */
export type RegisterToggle = (toggle: (() => void) | null) => void;

export default function ThemeOwner({ register }: { register: RegisterToggle }) {
  const { toggle } = useTheme();
  useEffect(() => {
    register(toggle);
    return () => register(null);
  }, [register, toggle]);
  return null;
}
