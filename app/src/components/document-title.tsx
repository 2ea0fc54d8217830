import { useEffect } from "react";

/** Sets the document title for the current route. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · mg`;
  }, [title]);
}
