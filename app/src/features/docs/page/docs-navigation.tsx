// The docs area's tab rows (spec 2.7) and the previous/next links under a page.
import { Link } from "react-router-dom";
import {
  cliSubtabs,
  type DocsIndexEntry,
  docsPath,
  neighbours,
  type ResolvedDocsRoute,
  tabRow,
} from "./docs-nav";
import "./docs-navigation.css";

export function TabRows({ route }: { route: ResolvedDocsRoute | null }) {
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
                  to={docsPath(entry.slug)}
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

export function Pager({ slug }: { slug: string }) {
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
