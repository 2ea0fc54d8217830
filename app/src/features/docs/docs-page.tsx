// The docs area of spec 2.7: sidebar, tab rows, the rendered page, its contents and prev/next links.
import { lazy, Suspense, use, useEffect, useLayoutEffect, useRef, useState } from "react";
import { Link, useLocation, useParams } from "react-router-dom";
import type { CliCatalogue, CliToolId } from "../../../shared/catalogue-types";
import { useDocumentTitle } from "../../components/document-title";
import { CliReference, HeadingAnchor, referenceHeadings } from "./cli-reference";
import {
  cliSubtabs,
  type DocsIndexEntry,
  docsPath,
  neighbours,
  type ResolvedDocsRoute,
  resolveDocsRoute,
  tabRow,
} from "./docs-nav";
import { DocsSidebar } from "./docs-sidebar";
import { loadCatalogue, loadCommandBuilder, loadDocsPage } from "./load-page";
import { PageErrorBoundary } from "./page-error-boundary";
import { copyText, useDocsInteractions, useMetaDescription } from "./use-docs-interactions";
import "./docs.css";
import "./code.css";

// Only the overview carries a widget, so the other docs pages' first visit never fetches its code.
const GraphicsWidget = lazy(() =>
  import("../../graphics/graphics-widget").then((m) => ({ default: m.GraphicsWidget })),
);

export { isCliSubtab, isDocsTab } from "./docs-nav";

/** Which tool's generated reference follows a page's prose. */
const referenceTool: Record<string, CliToolId> = { cli: "mg", dmt: "dmt", lsd: "lsd", esp: "esp" };

/** The CLI pages (spec 2.1's /mg/cli/:subtab) also get the command builder. */
const builderPages = new Set(["cli", "dmt", "lsd"]);

const builderHeadingId = "command-builder";

type BuilderModule = Awaited<ReturnType<typeof loadCommandBuilder>>;

/**
 * The command builder's section. The heading and introduction are the page's own; the form is the
 * builder's chunk, fetched when the section comes within 400 px of the viewport (it always
 * follows the page's prose), so a first visit that never scrolls there does not download it. A page
 * opened on a hash has it already (`preloaded`), so nothing above the target grows after landing.
 */
function BuilderSection({
  catalogue,
  tool,
  preloaded,
}: {
  catalogue: CliCatalogue;
  tool: CliToolId;
  preloaded: BuilderModule | undefined;
}) {
  const section = useRef<HTMLElement>(null);
  const [builder, setBuilder] = useState(preloaded);
  const [failed, setFailed] = useState(false);
  // Where the content after the section was on screen when the form arrived, if the reader was
  // past the section (scrolled or jumped beyond it): see the layout effect below.
  const followingTop = useRef<number | null>(null);
  // Set by Try again: its button goes with the error, so focus moves into the form when it arrives.
  const focusOnArrival = useRef(false);
  const invocation =
    catalogue.tools.find((candidate) => candidate.id === tool)?.invocation ?? `mg ${tool}`;

  useEffect(() => {
    const element = section.current;
    if (builder || failed || !element) return;
    let live = true;
    const load = () => {
      loadCommandBuilder().then(
        (loaded) => {
          if (!live) return;
          // The reader is past the section (its start is above the screen and mostly what follows
          // it is on screen): keep what follows in place. Otherwise the form grows downwards.
          const following = element.nextElementSibling;
          const box = element.getBoundingClientRect();
          followingTop.current =
            following && box.top < 0 && box.bottom < window.innerHeight / 2
              ? following.getBoundingClientRect().top
              : null;
          setBuilder(loaded);
        },
        () => live && setFailed(true),
      );
    };
    if (typeof IntersectionObserver === "undefined") {
      load();
      return () => {
        live = false;
      };
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        load();
      },
      { rootMargin: "400px 0px" },
    );
    observer.observe(element);
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [builder, failed]);

  // The form is taller than the placeholder. When the reader is past the section, what they are
  // looking at would move down by the difference. Browsers with scroll anchoring keep it in place
  // only when the section is wholly above the screen (not after a jump to the heading just below it,
  // where the section's end still shows under the site bar), and Safari never does; so the page
  // scrolls by however far it actually moved (0 where the browser has already done it).
  useLayoutEffect(() => {
    const before = followingTop.current;
    followingTop.current = null;
    if (builder && focusOnArrival.current) {
      focusOnArrival.current = false;
      section.current?.querySelector<HTMLElement>("select, input, button")?.focus();
    }
    const following = section.current?.nextElementSibling;
    if (!builder || before === null || !following) return;
    const moved = following.getBoundingClientRect().top - before;
    if (moved !== 0) window.scrollBy(0, moved);
  }, [builder]);

  return (
    <section className="builder" aria-labelledby={builderHeadingId} ref={section}>
      <div className="heading-wrapper heading-wrapper--h2">
        <h2 id={builderHeadingId}>Command builder</h2>
        <HeadingAnchor id={builderHeadingId} text="Command builder" />
      </div>
      <p>
        Pick a <code>{invocation}</code> command and fill in what it needs; the builder checks each
        value against the command reference and writes the exact line to paste into your terminal.
      </p>
      {builder ? (
        <builder.CommandBuilder catalogue={catalogue} tool={tool} />
      ) : failed ? (
        <div className="builder__failed" role="alert">
          <p>The command builder could not be loaded. Check your connection, then try again.</p>
          <button
            type="button"
            className="docs-button"
            onClick={() => {
              focusOnArrival.current = true;
              setFailed(false);
            }}
          >
            Try again
          </button>
        </div>
      ) : (
        <p className="builder__waiting">Loading the command builder…</p>
      )}
    </section>
  );
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

export type DocsPageProps = {
  /** A docs page slug (overview, quickstart, ..., cli); anything else shows "Page not found". */
  tab: string;
  /** On the cli tab: main, dmt or lsd (main when left out). */
  subtab?: string;
};

function TabRows({ route }: { route: ResolvedDocsRoute | null }) {
  return (
    <>
      <nav className="docs-tabs" aria-label="Docs tabs">
        <ul>
          {tabRow.map((tab) => (
            <li key={tab.tab}>
              <Link to={tab.to} aria-current={route?.tab === tab.tab ? "page" : undefined}>
                {tab.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {route?.tab === "cli" ? (
        <nav className="docs-tabs docs-tabs--sub" aria-label="CLI sections">
          <ul>
            {cliSubtabs.map((entry) => (
              <li key={entry.subtab}>
                <Link
                  to={`/mg/cli/${entry.subtab}`}
                  aria-current={route.subtab === entry.subtab ? "page" : undefined}
                >
                  {entry.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </>
  );
}

function Pager({ slug }: { slug: string }) {
  const { previous, next } = neighbours(slug);
  const item = (page: DocsIndexEntry, direction: "Previous" | "Next") => (
    <Link
      className={`docs-pager__link docs-pager__link--${direction.toLowerCase()}`}
      to={docsPath(page.slug)}
    >
      <span className="docs-pager__direction">{direction}</span>
      <span className="docs-pager__title">{page.title}</span>
    </Link>
  );
  return (
    <nav className="docs-pager" aria-label="Previous and next pages">
      {previous ? item(previous, "Previous") : <span />}
      {next ? item(next, "Next") : <span />}
    </nav>
  );
}

function DocsContent({ entry }: { entry: DocsIndexEntry }) {
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

function OverviewHero({ entry }: { entry: DocsIndexEntry }) {
  return (
    <header className="docs-hero page-intro">
      <div>
        <p className="docs-hero__kicker">Metagenesis documentation</p>
        <h1>Deploy into your own AWS account</h1>
        <p className="docs-hero__lead">{entry.description}</p>
        <p className="docs-hero__actions">
          <Link className="docs-button docs-button--primary" to={docsPath("quickstart")}>
            Quick Start
          </Link>
          <Link className="docs-button" to={docsPath("cli")}>
            CLI reference
          </Link>
        </p>
      </div>
      {/* Its box, at its final size, holds the place while the widget's chunk loads (no shift). */}
      <Suspense
        fallback={
          <div
            className="graphics-widget page-intro__art"
            aria-hidden="true"
            style={{ width: 200, height: 200 }}
          />
        }
      >
        <GraphicsWidget scene="helix" size={200} className="page-intro__art" />
      </Suspense>
    </header>
  );
}

function NotFound() {
  return (
    <section className="docs-not-found">
      <h1>Page not found</h1>
      <p>There is no docs page at this address. It may have moved, or the link has a typo.</p>
      <p>
        <Link to={docsPath("overview")}>Go to the docs overview</Link>
      </p>
    </section>
  );
}

export function DocsPage({ tab, subtab }: DocsPageProps) {
  const route = resolveDocsRoute(tab, subtab);
  const entry = route?.page;
  useDocumentTitle(entry ? entry.title : "Page not found");
  useMetaDescription(entry ? entry.description : "There is no docs page at this address.");

  return (
    <div className="docs">
      <DocsSidebar activeSlug={entry?.slug} />
      <main id="main" className="docs-main">
        <TabRows route={route} />
        {entry ? (
          <>
            {entry.slug === "overview" ? (
              <OverviewHero entry={entry} />
            ) : (
              <h1 className="docs-title">{entry.title}</h1>
            )}
            <PageErrorBoundary resetKey={entry.slug}>
              <Suspense
                fallback={
                  <p className="docs-loading" role="status">
                    Loading {entry.title}…
                  </p>
                }
              >
                <DocsContent key={entry.slug} entry={entry} />
              </Suspense>
            </PageErrorBoundary>
          </>
        ) : (
          <NotFound />
        )}
      </main>
    </div>
  );
}

/** Route element for `/mg/:tab` (and `/docs`, which shows the overview). */
export function DocsTabRoute() {
  const { tab } = useParams();
  return <DocsPage tab={tab ?? "overview"} />;
}

/** Route element for `/mg/cli/:subtab`. */
export function DocsCliRoute() {
  const { subtab } = useParams();
  return <DocsPage tab="cli" subtab={subtab ?? "main"} />;
}

/** Route element for `/docs`: the same docs area, opened at the overview. */
export function DocsOverviewRoute() {
  return <DocsPage tab="overview" />;
}
