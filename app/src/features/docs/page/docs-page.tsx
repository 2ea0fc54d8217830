// The docs area of spec 2.7: sidebar, tab rows, the page (docs-content.tsx) and its not-found state.
import { Suspense } from "react";
import { Link, useParams } from "react-router-dom";
import { usePageMeta } from "@/components/document-title";
import { DocsContent } from "./docs-content";
import { docsPath, resolveDocsRoute } from "./docs-nav";
import { TabRows } from "./docs-navigation";
import { DocsSidebar } from "./docs-sidebar";
import { adoptServerRenderedPage } from "./load-page";
import { OverviewHero } from "./overview-hero";
import { PageErrorBoundary } from "./page-error-boundary";
import "./docs.css";
import "./code.css";

export { isCliSubtab, isDocsTab } from "./docs-nav";

export type DocsPageProps = {
  /** A docs page slug (overview, quickstart, ..., cli); anything else shows "Page not found". */
  tab: string;
  /** On the cli tab: main, dmt or lsd (main when left out). */
  subtab?: string;
};

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
  usePageMeta(
    entry ? entry.title : "Page not found",
    entry ? entry.description : "There is no docs page at this address.",
  );

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

/**
 * Before hydrating the prerendered docs page at `/mg/:tab` or `/mg/cli/:subtab` (main.tsx): its body
 * is adopted from the HTML (DocsContent), so nothing more is downloaded to hydrate it.
 */
export async function preloadDocsRoute(tab: string, subtab?: string): Promise<void> {
  const slug = resolveDocsRoute(tab, subtab)?.page.slug;
  if (!slug) return;
  const html = (selector: string) => document.querySelector(`#root ${selector}`)?.innerHTML;
  adoptServerRenderedPage(slug, {
    prose: html(".docs-prose") ?? "",
    reference: html(".cli-reference"),
    toc: html(".docs-toc"),
  });
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
