import { docsDefaultPath, paths } from "@common/routes";
import { NavLink } from "react-router-dom";
import { Brand } from "./brand";
import { ThemeToggle } from "./theme-toggle";

const links = [
  { to: paths.status, label: "Status" },
  { to: docsDefaultPath, label: "Docs" },
  { to: paths.telekinesis, label: "Telekinesis" },
] as const;

export function SiteHeader() {
  return (
    <header className="site-header">
      <Brand block="site-header" />
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
