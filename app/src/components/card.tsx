// A titled card: a section on the shared raised surface (`.card`), named by its heading.
import type { ReactNode } from "react";

export function Card({
  id,
  title,
  className,
  children,
}: {
  /** The heading's id, which names the section. */
  id: string;
  title: ReactNode;
  /** The card's own class, beside `card`. */
  className: string;
  children: ReactNode;
}) {
  return (
    <section className={`card ${className}`} aria-labelledby={id}>
      <h2 id={id} className="card__title">
        {title}
      </h2>
      {children}
    </section>
  );
}
