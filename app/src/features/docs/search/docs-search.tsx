// The docs search button and its shortcuts (Ctrl+K, Cmd+K, "/"). The dialog, MiniSearch and the
// index are separate chunks fetched on first open, so no page pays for them up front.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import type { SearchOutcome } from "./search-dialog";

const SearchDialog = lazy(() => import("./search-dialog"));

/** True when a keystroke belongs to a text field (or other editor) rather than to the page. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes(
    target.type,
  );
}

/** Calls `open` on Ctrl+K / Cmd+K anywhere, and on "/" outside text fields. */
export function useSearchShortcut(open: () => void, enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const commandK =
        (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k";
      const slash =
        event.key === "/" &&
        !event.ctrlKey &&
        !event.metaKey &&
        !event.altKey &&
        !isTyping(event.target);
      if (!commandK && !slash) return;
      event.preventDefault();
      open();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open, enabled]);
}

export function DocsSearch() {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLElement | null>(null);
  const restoreFocus = useRef(false);

  const show = useCallback(() => {
    trigger.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(true);
  }, []);
  useSearchShortcut(show, !open);

  const close = useCallback((outcome: SearchOutcome) => {
    restoreFocus.current = outcome === "dismissed";
    setOpen(false);
  }, []);

  // After the dialog has left the page (and the rest of it is no longer inert).
  useEffect(() => {
    if (open || !restoreFocus.current) return;
    restoreFocus.current = false;
    trigger.current?.focus();
  }, [open]);

  const prefetch = () => void import("./search-dialog");

  return (
    <>
      <button
        type="button"
        className="docs-search-button"
        aria-haspopup="dialog"
        aria-keyshortcuts="Control+K Meta+K /"
        onClick={show}
        onPointerEnter={prefetch}
        onFocus={prefetch}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-4-4" />
        </svg>
        <span className="docs-search-button__label">Search docs</span>
        {/* Both spellings; CSS shows the one for `data-platform` on <html>, which index.html's inline
            script sets before first paint (the prerendered HTML cannot know the visitor's system). */}
        <kbd className="docs-search-button__keys">
          <span className="docs-search-button__keys--apple">⌘K</span>
          <span className="docs-search-button__keys--other">Ctrl K</span>
        </kbd>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <SearchDialog onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}
