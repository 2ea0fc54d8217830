// The page for any address outside the route table.
import { Link, useLocation } from "react-router-dom";
import { usePageMeta } from "../../components/document-title";
import { docsDefaultPath, paths } from "../../config/paths";

export function NotFoundPage() {
  usePageMeta("Page not found", "There is no page at this address.");
  const { pathname } = useLocation();
  return (
    <main id="main" className="page not-found">
      <p className="eyebrow">Error 404</p>
      <h1>Page not found</h1>
      <p className="page__lead">
        There is nothing at <code className="not-found__path">{pathname}</code>. It may have moved,
        or the address may have a typo.
      </p>
      <nav aria-label="Places to go" className="not-found__links">
        <Link to={paths.landing} className="button button--primary">
          Home
        </Link>
        <Link to={docsDefaultPath} className="button">
          Documentation
        </Link>
        <Link to={paths.status} className="button">
          Stack status
        </Link>
      </nav>
    </main>
  );
}
