import { useEffect } from "react";

/** Sets the document title for the current route. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · mg`;
  }, [title]);
}

/** Sets the page's meta description while mounted, restoring the previous one afterwards. */
export function useMetaDescription(description: string): void {
  useEffect(() => {
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement("meta");
      meta.name = "description";
      document.head.append(meta);
    }
    const previous = meta.content;
    meta.content = description;
    return () => {
      if (meta) meta.content = previous;
    };
  }, [description]);
}

/** Sets the document title and the meta description for the current route. */
export function usePageMeta(title: string, description: string): void {
  useDocumentTitle(title);
  useMetaDescription(description);
}
