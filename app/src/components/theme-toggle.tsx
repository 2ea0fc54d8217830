import { useThemeContext } from "./theme-provider";

/**
 * A button that switches between the cosmic (dark) and void (light) themes; it shows its target.
 *
 * Both targets are in the markup and CSS shows the one for the page's `data-theme` (set before first
 * paint by the inline script in index.html, and by the theme machine on a toggle): the server that
 * prerendered the page cannot know the stored theme, so the first render must not depend on it, and
 * choosing by CSS shows the right word at once, with no text swap after hydration.
 */
export function ThemeToggle() {
  const { toggle } = useThemeContext();
  return (
    <button type="button" className="theme-toggle" onClick={toggle}>
      {/* The visible word is the theme it switches to, so it is part of the accessible name
          (WCAG 2.5.3 label in name); the hidden target's text is out of the name (display: none). */}
      <span className="theme-toggle__target theme-toggle__target--void">
        <span className="visually-hidden">Switch to the </span>
        <span aria-hidden="true">☀</span>
        <span className="theme-toggle__label">Void</span>
        <span className="visually-hidden"> theme</span>
      </span>
      <span className="theme-toggle__target theme-toggle__target--cosmic">
        <span className="visually-hidden">Switch to the </span>
        <span aria-hidden="true">☾</span>
        <span className="theme-toggle__label">Cosmic</span>
        <span className="visually-hidden"> theme</span>
      </span>
    </button>
  );
}
