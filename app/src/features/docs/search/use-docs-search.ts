// The docs search's state: the index (loaded on first open, again on "Try again"), the query, its
// results, the active option and what the live region says; the arrow keys and Enter of the combobox.
import { type KeyboardEvent, useEffect, useMemo, useState } from "react";
import { type DocsSearch, loadDocsSearch, type SearchResult } from "./search-engine";

export type LoadState =
  | { status: "loading" }
  | { status: "ready"; search: DocsSearch }
  | { status: "error" };

/** `choose` opens a result (Enter picks the active one, or the first). */
export function useDocsSearch(choose: (result: SearchResult | undefined) => void) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(-1);
  const [load, setLoad] = useState<LoadState>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

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

  let message: string;
  if (load.status === "error") message = "Search could not load.";
  else if (trimmed === "") message = "";
  else if (load.status === "loading") message = "Loading the search index…";
  else if (results.length > 0)
    message = `${results.length} result${results.length === 1 ? "" : "s"}`;
  else message = `No results for “${trimmed}”`;

  return {
    query,
    /** A new query: no option is active until the arrow keys pick one. */
    type: (next: string) => {
      setQuery(next);
      setActive(-1);
    },
    trimmed,
    load,
    retry: () => setAttempt((n) => n + 1),
    results,
    active,
    setActive,
    onKeyDown,
    message,
  };
}
