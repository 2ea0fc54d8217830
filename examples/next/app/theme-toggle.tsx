"use client";
import { ThemeMachine } from "mg-core";
import { useTheme } from "mg-core/react";

export function ThemeToggle() {
  const { theme, toggle } = useTheme(ThemeMachine);
  // `theme` is undefined on the server and until the machine exists: the page is styled by
  // data-theme, which the layout's script set before paint.
  return (
    <button id="theme" type="button" onClick={toggle} disabled={theme === undefined}>
      theme: {theme ?? "…"}
    </button>
  );
}
