// One action of the operator view (open an incident, post an update, schedule maintenance, add a
// webhook): a disclosure whose summary is the action's heading. Its contents are made when it is first
// opened and kept from then on (what was typed survives closing it), so a page an operator only reads
// never builds, styles or lays out the forms: on a phone they were a third of the page's blocking time.
import { type ReactNode, useState } from "react";

export function OperatorAction({
  id,
  title,
  children,
}: {
  /** The heading's id: the form inside names itself by it (`aria-labelledby`). */
  id: string;
  title: string;
  children: ReactNode;
}) {
  const [opened, setOpened] = useState(false);
  return (
    <details
      className="operator__action"
      onToggle={(event) => {
        if (event.currentTarget.open) setOpened(true);
      }}
    >
      <summary className="operator__summary">
        <h3 id={id}>{title}</h3>
      </summary>
      {opened && <div className="operator__action-body">{children}</div>}
    </details>
  );
}
