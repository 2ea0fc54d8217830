// A docs page's body: the rendered Markdown, the CLI reference and command builder where they belong,
// the contents, and previous/next links.
import { use, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router-dom";
import type { CliToolId } from "../../../../shared/catalogue-types";
import { BuilderSection, builderHeadingId } from "../builder/builder-section";
import { CliReference, referenceHeadings } from "../reference/cli-reference";
import type { DocsIndexEntry } from "./docs-nav";
import { Pager } from "./docs-navigation";
import { loadCatalogue, loadCommandBuilder, loadDocsPage } from "./load-page";
import { copyText, useDocsInteractions } from "./use-docs-interactions";

/** Which tool's generated reference follows a page's prose. */
const referenceTool: Record<string, CliToolId> = { cli: "mg", dmt: "dmt", lsd: "lsd", esp: "esp" };

/** The CLI pages (spec 2.1's /mg/cli/:subtab) also get the command builder. */
const builderPages = new Set(["cli", "dmt", "lsd"]);

/**
 * Loads what the page `slug` renders in its first render (its text, its CLI catalogue); main.tsx
 * awaits it before hydrating a prerendered docs page, so `use` finds everything here and hydration
 * keeps the server's HTML as it is. Never rejects (a failed load shows the page's error state).
 */
export async function preloadDocsContent(slug: string): Promise<void> {
  const tool = referenceTool[slug];
  await Promise.allSettled([loadDocsPage(slug), tool ? loadCatalogue(tool) : undefined]);
}

/**
 * Scrolls to the heading a URL's hash names on every navigation (including a repeat of the same
 * hash) and, when search sent the reader here, moves focus to it too.
 */
function useLandOnHeading() {
  const { hash, key, state } = useLocation();
  const fromSearch = (state as { focusHeading?: boolean } | null)?.focusHeading === true;
  useEffect(() => {
    const target = hash
      ? document.getElementById(decodeURIComponent(hash.slice(1)))
      : fromSearch
        ? document.querySelector<HTMLElement>("main h1")
        : null;
    if (!target) return;
    target.scrollIntoView();
    if (!fromSearch) return;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }, [hash, key, fromSearch]);
}

export function DocsContent({ entry }: { entry: DocsIndexEntry }) {
  const { hash } = useLocation();
  // Only the hash the page was opened on counts: later in-page links find the builder's section
  // (and its heading) in place whether or not its form has arrived.
  const [openedOnHash] = useState(hash !== "");
  const tool = referenceTool[entry.slug];
  const hasBuilder = builderPages.has(entry.slug);
  // Every chunk the page needs starts downloading now, side by side, before the first `use`
  // suspends; `use` may be called conditionally, so only pages with a reference pull a catalogue.
  const pageLoad = loadDocsPage(entry.slug);
  const catalogueLoad = tool ? loadCatalogue(tool) : undefined;
  const builderLoad = hasBuilder && openedOnHash ? loadCommandBuilder() : undefined;
  const page = use(pageLoad);
  const catalogue = catalogueLoad ? use(catalogueLoad) : undefined;
  const preloadedBuilder = builderLoad ? use(builderLoad) : undefined;
  const article = useRef<HTMLDivElement>(null);
  const { announcement, announce } = useDocsInteractions(article);
  useLandOnHeading();

  const headings = [
    ...page.headings,
    ...(hasBuilder && catalogue
      ? [{ depth: 2, text: "Command builder", id: builderHeadingId }]
      : []),
    ...(tool && catalogue ? referenceHeadings(catalogue, tool) : []),
  ].filter((heading) => heading.depth <= 3);

  const copyPage = async () => {
    const markdown = await page.loadMarkdown().catch(() => undefined);
    const ok = markdown !== undefined && (await copyText(`# ${page.title}\n\n${markdown}`));
    announce(ok ? "Page copied as Markdown" : "Copy failed");
  };

  return (
    <div className="docs-body">
      <div className="docs-article" ref={article}>
        <div className="docs-article__tools">
          <button type="button" className="docs-button" onClick={copyPage}>
            Copy page as Markdown
          </button>
        </div>
        {/* Trusted: rendered at build time from the repo's own Markdown, with raw HTML disabled. */}
        <div className="docs-prose" dangerouslySetInnerHTML={{ __html: page.html }} />
        {tool && catalogue ? (
          <div className="docs-prose">
            {hasBuilder ? (
              <BuilderSection catalogue={catalogue} tool={tool} preloaded={preloadedBuilder} />
            ) : null}
            <CliReference catalogue={catalogue} tool={tool} />
          </div>
        ) : null}
        <Pager slug={entry.slug} />
        <p className="visually-hidden" role="status" aria-live="polite">
          {announcement}
        </p>
      </div>
      {headings.length > 1 ? (
        <nav className="docs-toc" aria-label="On this page">
          <p className="docs-toc__title">On this page</p>
          <ul>
            {headings.map((heading) => (
              <li key={heading.id} className={`docs-toc__item docs-toc__item--${heading.depth}`}>
                <a href={`#${heading.id}`}>{heading.text}</a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </div>
  );
}
