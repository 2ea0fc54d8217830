// The sanctified-mode top navigation: projects, theme, and sign-in (anonymous) or the user menu (signed in).

import { docsDefaultPath, paths } from "@common/routes";
import {
  type ComponentType,
  type KeyboardEvent,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { Link, useNavigate } from "react-router-dom";
import type { IdentityProfile } from "../lib/identity";
import { useSession } from "../lib/session/session-context";
import { useRouteDisclosure } from "../lib/use-route-disclosure";
import { Brand } from "./brand";
import { ThemeToggle } from "./theme-toggle";
import "./sanctified-nav.css";

/**
 * The sign-in dialogs. They belong to the auth feature, which shared components do not import: the
 * app (src/app/router.tsx) hands them in, lazily loaded so they stay out of the first paint.
 */
export interface AuthDialogs {
  LoginModal: ComponentType<{ onClose: () => void; onOpenGuide: () => void }>;
  SetupGuideModal: ComponentType<{ onClose: () => void }>;
}

const projects = [
  { to: paths.status, label: "Apotheosis" },
  { to: paths.telekinesis, label: "Telekinesis" },
  { to: docsDefaultPath, label: "Metagenesis" },
] as const;

interface MenuProps {
  label: ReactNode;
  /** Accessible name of the button when the label is not plain text. */
  ariaLabel?: string;
  className?: string;
  children: (close: () => void) => ReactNode;
}

/** A menu button (WAI-ARIA menu pattern): Enter/Space/ArrowDown open, arrows move, Escape closes. */
function MenuButton({ label, ariaLabel, className, children }: MenuProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const focusFirst = useRef(false);

  const items = () => [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const close = useCallback((refocus = true) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    if (focusFirst.current) items()[0]?.focus();
    const outside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", outside);
    return () => document.removeEventListener("mousedown", outside);
  }, [open]);

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      focusFirst.current = true;
      if (open) items()[0]?.focus();
      setOpen(true);
    }
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === "ArrowDown") move(at + 1);
    else if (event.key === "ArrowUp") move(at - 1);
    else if (event.key === "Home") move(0);
    else if (event.key === "End") move(list.length - 1);
    else if (event.key === "Tab") setOpen(false);
  };

  return (
    <div ref={root} className={`nav-menu ${className ?? ""}`.trim()}>
      <button
        ref={button}
        type="button"
        className="nav-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={id}
        aria-label={ariaLabel}
        onClick={() => {
          focusFirst.current = false;
          setOpen((was) => !was);
        }}
        onKeyDown={onButtonKey}
      >
        {label}
        <span aria-hidden="true" className="nav-menu__caret">
          ▾
        </span>
      </button>
      <div id={id} role="menu" className="nav-menu__list" hidden={!open} onKeyDown={onMenuKey}>
        {children(() => close(false))}
      </div>
    </div>
  );
}

/** A short name for the user menu's button. */
function userLabel(user: IdentityProfile): string {
  return user.name || user.displayName || user.email || user.loginIds?.[0] || "Account";
}

export function SanctifiedNav({ dialogs }: { dialogs: AuthDialogs }) {
  const { LoginModal, SetupGuideModal } = dialogs;
  const session = useSession();
  const navigate = useNavigate();
  const { open: mobileOpen, panelId, button: toggle } = useRouteDisclosure();
  const [dialog, setDialog] = useState<"login" | "guide" | null>(null);

  const logout = async () => {
    await session.logout();
    navigate(paths.landing);
  };

  const { state } = session;
  // While the callback completes a sign-in there is nothing to offer: Log in and Sign up would only
  // start another. Their room is held as while the session loads.
  const pending =
    state.status === "loading" || (state.status === "anonymous" && Boolean(session.completing));
  return (
    <>
      <header className="sanctified-nav">
        <div className="sanctified-nav__bar">
          <Brand block="sanctified-nav" />
          <button type="button" className="sanctified-nav__toggle" {...toggle}>
            <span aria-hidden="true">☰</span>
            <span className="visually-hidden">Menu</span>
          </button>
          <nav
            id={panelId}
            aria-label="Main"
            className={`sanctified-nav__panel${mobileOpen ? " sanctified-nav__panel--open" : ""}`}
          >
            <MenuButton label="Projects">
              {(close) =>
                projects.map((project) => (
                  <Link
                    key={project.to}
                    to={project.to}
                    role="menuitem"
                    tabIndex={-1}
                    className="nav-menu__item"
                    onClick={close}
                  >
                    {project.label}
                  </Link>
                ))
              }
            </MenuButton>
            <ThemeToggle />
            {pending && (
              // Holds the sign-in buttons' room while the session loads, so nothing in the bar
              // moves when they appear (CLS 0). Hidden from everyone, clicks included.
              <div
                className="sanctified-nav__auth sanctified-nav__auth--pending"
                aria-hidden="true"
              >
                <span className="button">Log in</span>
                <span className="button button--primary">Sign up</span>
                <span className="button">Setup guide</span>
              </div>
            )}
            {!pending && state.status === "anonymous" && (
              <div className="sanctified-nav__auth">
                <button type="button" className="button" onClick={() => setDialog("login")}>
                  Log in
                </button>
                <button
                  type="button"
                  className="button button--primary"
                  onClick={() => setDialog("login")}
                >
                  Sign up
                </button>
                <button type="button" className="button" onClick={() => setDialog("guide")}>
                  Setup guide
                </button>
              </div>
            )}
            {state.status === "signed-in" && (
              <MenuButton
                label={<span className="sanctified-nav__user">{userLabel(state.user)}</span>}
                ariaLabel={`Account: ${userLabel(state.user)}`}
                className="nav-menu--end"
              >
                {(close) => (
                  <>
                    <Link
                      to={paths.dashboard}
                      role="menuitem"
                      tabIndex={-1}
                      className="nav-menu__item"
                      onClick={close}
                    >
                      Dashboard
                    </Link>
                    <button
                      type="button"
                      role="menuitem"
                      tabIndex={-1}
                      className="nav-menu__item"
                      onClick={() => {
                        close();
                        void logout();
                      }}
                    >
                      Log out
                    </button>
                  </>
                )}
              </MenuButton>
            )}
          </nav>
        </div>
      </header>
      <div className="sanctified-nav__spacer" aria-hidden="true" />
      <Suspense fallback={null}>
        {dialog === "login" && (
          <LoginModal onClose={() => setDialog(null)} onOpenGuide={() => setDialog("guide")} />
        )}
        {dialog === "guide" && <SetupGuideModal onClose={() => setDialog(null)} />}
      </Suspense>
    </>
  );
}
