// The docs overview's hero: title, lead, the two first steps, and the helix widget.
import { lazy, Suspense } from "react";
import { Link } from "react-router-dom";
import { type DocsIndexEntry, docsPath } from "./docs-nav";
import "./overview-hero.css";

// Only the overview carries a widget, so the other docs pages' first visit never fetches its code.
const GraphicsWidget = lazy(() =>
  import("@/graphics/graphics-widget").then((m) => ({ default: m.GraphicsWidget })),
);

export function OverviewHero({ entry }: { entry: DocsIndexEntry }) {
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
