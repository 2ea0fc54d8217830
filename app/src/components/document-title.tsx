import { createContext, useContext, useEffect } from "react";

/** A page's head texts: the whole `<title>` and the meta description. */
export type PageMeta = { title: string; description: string };

/**
 * Given only by the build's prerender (entry-server.tsx): receives the rendering page's head texts in
 * render, where effects never run, so the prerendered `<head>` carries the same title and description
 * the browser then keeps (docs/rendering.md).
 */
export const PageMetaContext = createContext<((meta: PageMeta) => void) | null>(null);

/** The full document title of a page called `title`. */
export function documentTitle(title: string): string {
  return `${title} · mg`;
}

/** Sets the document title for the current route. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = documentTitle(title);
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
  useContext(PageMetaContext)?.({ title: documentTitle(title), description });
  useDocumentTitle(title);
  useMetaDescription(description);
}

/**
 * Points the page's `<link rel="alternate" type="text/markdown">` at `href` while mounted (a docs
 * page's Markdown twin), reusing the one a prerendered page already has in its head; it goes when
 * the page does, since only docs pages have a twin.
 */
export function useMarkdownAlternate(href: string | undefined): void {
  useEffect(() => {
    if (!href) return;
    let link = document.querySelector<HTMLLinkElement>(
      'link[rel="alternate"][type="text/markdown"]',
    );
    if (!link) {
      link = document.createElement("link");
      link.rel = "alternate";
      link.type = "text/markdown";
      document.head.append(link);
    }
    link.setAttribute("href", href);
    return () => link?.remove();
  }, [href]);
}
