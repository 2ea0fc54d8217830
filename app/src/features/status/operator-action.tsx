// One action of the operator view (open an incident, post an update, schedule maintenance, add a
// webhook): a disclosure whose summary is the action's heading. Its contents are made when it is first
// opened and kept from then on (what was typed survives closing it), so a page an operator only reads
// never builds, styles or lays out the forms: on a phone they were a third of the page's blocking time.
// The action's outcome line (operator-outcome.tsx) sits after the disclosure, not inside it: from an
// element focused by script inside an open <details>, Chromium's next Tab goes back to the
// disclosure's first field; from just after it, Tab goes on to the next control, as a person expects.
import { createContext, type ReactNode, useState } from "react";

/** Where the open action's outcome line is put (after its disclosure); null outside an action. */
export const OutcomeSlot = createContext<HTMLElement | null>(null);

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
  const [slot, setSlot] = useState<HTMLDivElement | null>(null);
  return (
    <div className="operator__action-box">
      <details
        className="operator__action"
        onToggle={(event) => {
          if (event.currentTarget.open) setOpened(true);
        }}
      >
        <summary className="operator__summary">
          <h3 id={id}>{title}</h3>
        </summary>
        {opened && (
          <OutcomeSlot.Provider value={slot}>
            <div className="operator__action-body">{children}</div>
          </OutcomeSlot.Provider>
        )}
      </details>
      <div ref={setSlot} className="operator__action-outcome" />
    </div>
  );
}
