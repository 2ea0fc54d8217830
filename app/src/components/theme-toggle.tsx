import { useThemeContext } from "./theme-provider";

/** A button that switches between the cosmic (dark) and void (light) themes. */
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
      <span aria-hidden="true">{theme === "cosmic" ? "☾" : "☀"}</span>
      <span className="theme-toggle__label">{theme === "cosmic" ? "Cosmic" : "Void"}</span>
    </button>
  );
}
