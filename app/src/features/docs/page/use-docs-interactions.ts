// Wires a rendered docs article: copy buttons write to the clipboard, internal links route in-app.
import { type RefObject, useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Returns the message for an aria-live region: "Copied" after a copy button worked. */
export function useDocsInteractions(container: RefObject<HTMLElement | null>) {
  const navigate = useNavigate();
  const [announcement, setAnnouncement] = useState("");

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const later = (callback: () => void, ms: number) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        callback();
      }, ms);
      timers.add(timer);
    };

    const onClick = (event: MouseEvent) => {
      const target = event.target as Element | null;
      const button = target?.closest<HTMLButtonElement>("[data-copy-code]");
      if (button) {
        const code = button.closest(".code-block")?.querySelector("code")?.textContent ?? "";
        void copyText(code).then((ok) => {
          const message = ok ? "Copied" : "Copy failed";
          setAnnouncement(message);
          button.textContent = message;
          later(() => {
            button.textContent = "Copy";
            setAnnouncement("");
          }, 2000);
        });
        return;
      }
      const link = target?.closest<HTMLAnchorElement>("a[href^='/']");
      if (
        link &&
        !link.target &&
        event.button === 0 &&
        !event.metaKey &&
        !event.ctrlKey &&
        !event.shiftKey &&
        !event.altKey
      ) {
        event.preventDefault();
        void navigate(link.getAttribute("href") ?? "/");
      }
    };

    element.addEventListener("click", onClick);
    return () => {
      element.removeEventListener("click", onClick);
      for (const timer of timers) clearTimeout(timer);
    };
  }, [container, navigate]);

  return { announcement, announce: setAnnouncement };
}
