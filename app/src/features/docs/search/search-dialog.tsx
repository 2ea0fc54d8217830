// The docs search dialog (its own lazy chunk): a modal combobox over the build-time index, with
// keyboard navigation through the results and a landing on the chosen heading.
import { useEffect, useId, useRef } from "react";
import { useNavigate } from "react-router-dom";
import type { SearchResult } from "./search-engine";
import { SearchBody } from "./search-results";
import { useDocsSearch } from "./use-docs-search";
import "./search-dialog.css";

export type SearchOutcome = "dismissed" | "chosen";

/** Navigation state that tells the docs page to move focus to the target heading. */
export const focusHeadingState = { focusHeading: true } as const;

export function SearchDialog({ onClose }: { onClose: (outcome: SearchOutcome) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const id = useId();
  const listId = `${id}-results`;
  const optionId = (index: number) => `${id}-option-${index}`;

  const choose = (result: SearchResult | undefined) => {
    if (!result) return;
    onClose("chosen");
    void navigate(result.href, { state: focusHeadingState });
  };
  const search = useDocsSearch(choose);
  const { active, results } = search;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    input.current?.focus();
    return () => element?.close();
  }, []);

  useEffect(() => {
    if (active >= 0)
      document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
  });

  const expanded = results.length > 0;

  return (
    // The backdrop is part of the <dialog> box: a click that lands on the dialog itself closes it.
    // Keyboard users close it with Escape (the native cancel event) or the Close button.
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape is handled by the dialog's cancel event
    <dialog
      ref={dialog}
      className="docs-search"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onClose("dismissed");
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose("dismissed");
      }}
    >
      <div>
        <h2 id={`${id}-title`} className="visually-hidden">
          Search the docs
        </h2>
        <div className="docs-search__field">
          <svg className="docs-search__icon" viewBox="0 0 24 24" aria-hidden="true">
            <circle cx="11" cy="11" r="7" />
            <path d="m20 20-4-4" />
          </svg>
          <label htmlFor={`${id}-input`} className="visually-hidden">
            Search the docs
          </label>
          <input
            ref={input}
            id={`${id}-input`}
            className="docs-search__input"
            type="text"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={expanded ? listId : undefined}
            aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
            aria-describedby={`${id}-hint`}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            enterKeyHint="go"
            placeholder="Search pages, sections and commands"
            value={search.query}
            onChange={(event) => search.type(event.target.value)}
            onKeyDown={search.onKeyDown}
          />
          <button type="button" className="docs-search__close" onClick={() => onClose("dismissed")}>
            Close
          </button>
        </div>
        <SearchBody
          load={search.load}
          trimmed={search.trimmed}
          results={results}
          active={active}
          listId={listId}
          optionId={optionId}
          setActive={search.setActive}
          choose={choose}
          retry={search.retry}
        />
        <p id={`${id}-hint`} className="docs-search__hint">
          <span>
            <kbd>↑</kbd> <kbd>↓</kbd> to move
          </span>
          <span>
            <kbd>Enter</kbd> to open
          </span>
          <span>
            <kbd>Esc</kbd> to close
          </span>
        </p>
        <p className="visually-hidden" role="status" aria-live="polite">
          {search.message}
        </p>
      </div>
    </dialog>
  );
}

export default SearchDialog;
