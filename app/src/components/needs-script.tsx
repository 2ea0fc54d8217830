// Where part of a page works only with JavaScript (live checks, the Wisdom button, tabs), a visitor
// who has it off is told so instead of watching "Checking" forever. <noscript>: React writes its
// text into the prerendered HTML, leaves it alone when hydrating, and a browser running scripts
// never shows it (so it moves nothing: CLS 0).
import type { ReactNode } from "react";

export function NeedsScript({ children }: { children: ReactNode }) {
  return (
    <noscript>
      <p className="needs-script">{children}</p>
    </noscript>
  );
}
