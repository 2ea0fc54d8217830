// The docs search dialog's body: the state of the index and the query, or the results, each an
// option of the combobox's listbox.
import type { SearchResult } from "./search-engine";
import type { LoadState } from "./use-docs-search";

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

export function SearchBody({
  load,
  trimmed,
  results,
  active,
  listId,
  optionId,
  setActive,
  choose,
  retry,
}: {
  load: LoadState;
  trimmed: string;
  results: SearchResult[];
  active: number;
  listId: string;
  optionId: (index: number) => string;
  setActive: (index: number) => void;
  choose: (result: SearchResult) => void;
  retry: () => void;
}) {
  const expanded = results.length > 0;
  return (
    <div className="docs-search__body">
      {load.status === "error" ? (
        <div className="docs-search__state" role="alert">
          <p>The search index could not load. Check your connection and try again.</p>
          <button type="button" className="docs-button" onClick={retry}>
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
  );
}
