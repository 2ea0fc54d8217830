import { useThemeContext } from "./theme-provider";

/** A button that switches between the cosmic (dark) and void (light) themes; it shows its target. */
export function ThemeToggle() {
  const { theme, toggle } = useThemeContext();
  const next = theme === "cosmic" ? "void" : "cosmic";
  return (
    <button
      type="button"
      className="theme-toggle"
      onClick={toggle}
      aria-label={`Switch to the ${next} theme`}
      title={`Switch to the ${next} theme`}
      data-theme-current={theme}
    >
      {/* The visible word is the theme it switches to, so it is part of the accessible name
          (WCAG 2.5.3 label in name). */}
      <span aria-hidden="true">{next === "void" ? "☀" : "☾"}</span>
      <span className="theme-toggle__label">{next === "void" ? "Void" : "Cosmic"}</span>
    </button>
  );
}
