// One table of the bench pages: a labelled region that scrolls sideways on a narrow screen
// (focusable, so the keyboard can scroll it too), its caption, column heads and rows.

import type { ReactNode } from "react";
import { ColumnHeads } from "../../components/column-heads";

export function BenchTable({
  label,
  testId,
  caption,
  columns,
  children,
}: {
  label: string;
  testId?: string;
  caption: ReactNode;
  columns: string[];
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable
    <section className="bench__table-wrap" aria-label={label} tabIndex={0}>
      <table className="bench__table" data-testid={testId}>
        <caption>{caption}</caption>
        <ColumnHeads columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </section>
  );
}
