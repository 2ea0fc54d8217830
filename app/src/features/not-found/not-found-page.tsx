// The page for any address outside the route table.

import { docsDefaultPath, paths } from "@common/routes";
import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router-dom";
import { usePageMeta } from "../../components/document-title";

export function NotFoundPage() {
  usePageMeta("Page not found", "There is no page at this address.");
  const { pathname } = useLocation();
  // The build prerenders this page once for every unknown address, so the address is filled in after
  // hydration, on a line of its own that has its height from the start (nothing moves, CLS 0).
  const [shown, setShown] = useState("");
  useEffect(() => setShown(pathname), [pathname]);
  return (
    <main id="main" className="page not-found">
      <p className="eyebrow">Error 404</p>
      <h1>Page not found</h1>
      <p className="page__lead">
        There is nothing at this address. It may have moved, or the address may have a typo.
      </p>
      <p className="not-found__address">
        <code className="not-found__path">{shown}</code>
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
