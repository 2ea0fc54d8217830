// A docs page's body: the rendered Markdown, the CLI reference and command builder where they belong,
// the contents, and previous/next links.

import type { CliToolId } from "@common/catalogue-types";
import { use, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router-dom";
import { useMarkdownAlternate } from "@/components/document-title";
import { BuilderSection, builderHeadingId } from "../builder/builder-section";
import { useCommandTool } from "../builder/use-command-tool";
import { CliReference, referenceHeadings } from "../reference/cli-reference";
import { type DocsIndexEntry, docsPath } from "./docs-nav";
import { Pager } from "./docs-navigation";
import {
  adoptedPage,
  loadCatalogue,
  loadCommandBuilder,
  loadDocsPage,
  releaseAdopted,
} from "./load-page";
import { copyText, useDocsInteractions } from "./use-docs-interactions";

/** Which tool's generated reference follows a page's prose. */
const referenceTool: Record<string, CliToolId> = { cli: "mg", dmt: "dmt", lsd: "lsd", esp: "esp" };

/** The CLI pages (spec 2.1's /mg/cli/:subtab) also get the command builder. */
const builderPages = new Set(["cli", "dmt", "lsd"]);

/**
 * Server-rendered HTML adopted while hydrating: an element with inner HTML has no children to hydrate,
 * so React keeps what the server sent, and the text is not downloaded a second time to hydrate it. The
 * HTML given is the server's own (read before hydration), so were React ever to render the element
 * anew, it would write the same content.
 */
function Adopted({
  as: Tag,
  html,
  ...props
}: {
  as: "div" | "nav" | "section";
  html: string;
  [attribute: string]: string;
}) {
  return <Tag {...props} dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />;
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
  // Hydrating the prerendered page: its prose, reference and contents stay the server's HTML (see
  // Adopted), and their data is fetched only when something needs it (a copy, the builder's form).
  const [adopted] = useState(() => adoptedPage(entry.slug));
  useEffect(() => releaseAdopted(entry.slug), [entry.slug]);
  const pageLoad = adopted ? undefined : loadDocsPage(entry.slug);
  const catalogueLoad = tool && !adopted ? loadCatalogue(tool) : undefined;
  // An adopted page does not wait for the form: what follows the builder stays in place when it
  // arrives (BuilderSection), and hydration must not wait for a download.
  const builderLoad = hasBuilder && openedOnHash && !adopted ? loadCommandBuilder() : undefined;
  const page = pageLoad ? use(pageLoad) : undefined;
  const catalogue = catalogueLoad ? use(catalogueLoad) : undefined;
  const preloadedBuilder = builderLoad ? use(builderLoad) : undefined;
  const article = useRef<HTMLDivElement>(null);
  const { announcement, announce } = useDocsInteractions(article);
  useLandOnHeading();
  useCommandTool(hasBuilder);
  useMarkdownAlternate(`${docsPath(entry.slug)}.md`);

  const headings = [
    ...(page?.headings ?? []),
    ...(hasBuilder && catalogue
      ? [{ depth: 2, text: "Command builder", id: builderHeadingId }]
      : []),
    ...(tool && catalogue ? referenceHeadings(catalogue, tool) : []),
  ].filter((heading) => heading.depth <= 3);

  const copyPage = async () => {
    // The page's Markdown twin: the same text the server answers at the page's path plus `.md`.
    const loaded = page ?? (await loadDocsPage(entry.slug).catch(() => undefined));
    const markdown = await loaded?.loadMarkdown().catch(() => undefined);
    const ok = markdown !== undefined && (await copyText(markdown));
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
        {page ? (
          <div className="docs-prose" dangerouslySetInnerHTML={{ __html: page.html }} />
        ) : (
          <Adopted as="div" className="docs-prose" html={adopted?.prose ?? ""} />
        )}
        {tool && (catalogue || adopted !== undefined) ? (
          <div className="docs-prose">
            {hasBuilder ? (
              <BuilderSection
                catalogue={catalogue}
                tool={tool}
                preloaded={preloadedBuilder}
                eager={openedOnHash && adopted !== undefined}
              />
            ) : null}
            {catalogue ? (
              <CliReference catalogue={catalogue} tool={tool} />
            ) : (
              <Adopted
                as="section"
                className="cli-reference"
                aria-labelledby="command-reference"
                html={adopted?.reference ?? ""}
              />
            )}
          </div>
        ) : null}
        <Pager slug={entry.slug} />
        <p className="visually-hidden" role="status" aria-live="polite">
          {announcement}
        </p>
      </div>
      {adopted?.toc !== undefined ? (
        <Adopted as="nav" className="docs-toc" aria-label="On this page" html={adopted.toc} />
      ) : headings.length > 1 ? (
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
