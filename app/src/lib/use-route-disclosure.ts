// A panel folded behind a disclosure button (the docs menu, the nav's mobile menu): the button's
// state and target, and a navigation closes the panel, so the page it opens is what the reader sees.
import { useEffect, useId, useState } from "react";
import { useLocation } from "react-router-dom";

export function useRouteDisclosure() {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const panelId = useId();
  useEffect(() => setOpen(false), [pathname]);
  /** Spread on the disclosure button (with `type="button"`). */
  const button = {
    "aria-expanded": open,
    "aria-controls": panelId,
    onClick: () => setOpen((was) => !was),
  };
  return { open, panelId, button };
}
