import { docsDefaultPath, paths } from "@common/routes";
import { Link, NavLink } from "react-router-dom";
import { ThemeToggle } from "./theme-toggle";

const links = [
  { to: paths.status, label: "Status" },
  { to: docsDefaultPath, label: "Docs" },
  { to: paths.telekinesis, label: "Telekinesis" },
] as const;

export function SiteHeader() {
  return (
    <header className="site-header">
      <Link to={paths.landing} className="site-header__brand">
        <span className="site-header__mark" aria-hidden="true">
          mg
        </span>
        <span>metagenesis</span>
      </Link>
      <nav aria-label="Main" className="site-header__nav">
        {links.map((link) => (
          <NavLink key={link.to} to={link.to}>
            {link.label}
          </NavLink>
        ))}
      </nav>
      <ThemeToggle />
    </header>
  );
}
