// The docs sidebar of spec 2.7 with the search button on top; below 48rem it folds behind a
// "Docs menu" disclosure button so the page starts with its content.
import { Link } from "react-router-dom";
import { useRouteDisclosure } from "@/lib/use-route-disclosure";
import { DocsSearch } from "../search/docs-search";
import { docsPath, sidebarSections } from "./docs-nav";
import "./docs-sidebar.css";

/** A link to the docs page `slug`, marked as the current page when it is `activeSlug`. */
function DocLink({
  slug,
  activeSlug,
  label,
}: {
  slug: string;
  activeSlug?: string;
  label: string;
}) {
  return (
    <Link to={docsPath(slug)} aria-current={slug === activeSlug ? "page" : undefined}>
      {label}
    </Link>
  );
}

function SidebarLinks({ activeSlug }: { activeSlug?: string }) {
  return (
    <>
      {sidebarSections.map((section) => (
        <div key={section.label} className="docs-sidebar__section">
          <p className="docs-sidebar__heading">
            {section.slug ? (
              <DocLink slug={section.slug} activeSlug={activeSlug} label={section.label} />
            ) : (
              section.label
            )}
          </p>
          <ul>
            {section.items.map((item) => (
              <li key={item.label}>
                {item.slug ? (
                  <DocLink slug={item.slug} activeSlug={activeSlug} label={item.label} />
                ) : item.to ? (
                  <Link to={item.to}>{item.label}</Link>
                ) : (
                  <span className="docs-sidebar__soon">
                    {item.label} <span className="docs-badge">coming soon</span>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

export function DocsSidebar({ activeSlug }: { activeSlug?: string }) {
  const { open, panelId, button } = useRouteDisclosure();

  return (
    <div className="docs-side">
      <div className="docs-side__bar">
        <button type="button" className="docs-menu-button" {...button}>
          <svg viewBox="0 0 24 24" aria-hidden="true">
            {open ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
          Docs menu
        </button>
        <DocsSearch />
      </div>
      <nav id={panelId} className="docs-sidebar" data-open={open} aria-label="Docs sections">
        <SidebarLinks activeSlug={activeSlug} />
      </nav>
    </div>
  );
}
