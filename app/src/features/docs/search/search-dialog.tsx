// The docs search dialog (its own lazy chunk): a modal combobox over the build-time index, with
// keyboard navigation through the results and a landing on the chosen heading.
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { type DocsSearch, loadDocsSearch, type SearchResult } from "./search-engine";
import "./search-dialog.css";

export type SearchOutcome = "dismissed" | "chosen";

/** Navigation state that tells the docs page to move focus to the target heading. */
export const focusHeadingState = { focusHeading: true } as const;

type LoadState =
  | { status: "loading" }
  | { status: "ready"; search: DocsSearch }
  | { status: "error" };

function ResultText({ result }: { result: SearchResult }) {
  return (
    <>
      {/* A page's introduction is named by the page title alone; sections say where they are. */}
      <span className="docs-search__where">
        {result.anchor ? (
          <>
            <span className="docs-search__page">{result.page}</span>
            <span className="docs-search__sep" aria-hidden="true">
              ›
            </span>
          </>
        ) : null}
        {result.kind === "command" ? (
          <code className="docs-search__heading">{result.heading}</code>
        ) : (
          <span className="docs-search__heading">{result.heading}</span>
        )}
      </span>
      <span className="docs-search__excerpt">
        {result.excerpt.map((part, index) =>
          part.match ? <mark key={index}>{part.text}</mark> : part.text,
        )}
      </span>
    </>
  );
}

export function SearchDialog({ onClose }: { onClose: (outcome: SearchOutcome) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(-1);
  const [load, setLoad] = useState<LoadState>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  const id = useId();
  const listId = `${id}-results`;
  const optionId = (index: number) => `${id}-option-${index}`;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    input.current?.focus();
    return () => element?.close();
  }, []);

  useEffect(() => {
    let live = true;
    setLoad({ status: "loading" });
    loadDocsSearch().then(
      (search) => live && setLoad({ status: "ready", search }),
      () => live && setLoad({ status: "error" }),
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  const trimmed = query.trim();
  const results = useMemo(
    () => (load.status === "ready" ? load.search(trimmed) : []),
    [load, trimmed],
  );

  useEffect(() => {
    if (active >= 0)
      document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
  });

  const choose = (result: SearchResult | undefined) => {
    if (!result) return;
    onClose("chosen");
    void navigate(result.href, { state: focusHeadingState });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = results.length;
    if (event.key === "ArrowDown" && count > 0) {
      event.preventDefault();
      setActive((current) => (current + 1) % count);
    } else if (event.key === "ArrowUp" && count > 0) {
      event.preventDefault();
      setActive((current) => (current <= 0 ? count - 1 : current - 1));
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(results[active >= 0 ? active : 0]);
    }
  };

  const expanded = results.length > 0;
  let message: string;
  if (load.status === "error") message = "Search could not load.";
  else if (trimmed === "") message = "";
  else if (load.status === "loading") message = "Loading the search index…";
  else if (expanded) message = `${results.length} result${results.length === 1 ? "" : "s"}`;
  else message = `No results for “${trimmed}”`;

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
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setActive(-1);
            }}
            onKeyDown={onKeyDown}
          />
          <button type="button" className="docs-search__close" onClick={() => onClose("dismissed")}>
            Close
          </button>
        </div>
        <div className="docs-search__body">
          {load.status === "error" ? (
            <div className="docs-search__state" role="alert">
              <p>The search index could not load. Check your connection and try again.</p>
              <button
                type="button"
                className="docs-button"
                onClick={() => setAttempt((n) => n + 1)}
              >
                Try again
              </button>
            </div>
          ) : trimmed !== "" && load.status === "loading" ? (
            <p className="docs-search__state docs-search__state--loading">
              <span className="docs-search__spinner" aria-hidden="true" />
              Loading the search index…
            </p>
          ) : trimmed === "" ? (
            <p className="docs-search__state">
              Search every docs page, section and CLI command
              {load.status === "loading" ? " (loading the index…)" : "."}
            </p>
          ) : expanded ? (
            <div id={listId} className="docs-search__results" role="listbox" aria-label="Results">
              {results.map((result, index) => (
                // Options are chosen through the combobox (aria-activedescendant), so they take no
                // focus and need no key handler of their own; the mouse can still pick one.
                // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled by the combobox input
                <div
                  key={result.id}
                  id={optionId(index)}
                  role="option"
                  tabIndex={-1}
                  aria-selected={index === active}
                  className="docs-search__result"
                  onMouseMove={() => index !== active && setActive(index)}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(result)}
                >
                  <ResultText result={result} />
                </div>
              ))}
            </div>
          ) : (
            <p className="docs-search__state">
              No results for “<strong>{trimmed}</strong>”. Try fewer or different words.
            </p>
          )}
        </div>
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
          {message}
        </p>
      </div>
    </dialog>
  );
}

export default SearchDialog;
