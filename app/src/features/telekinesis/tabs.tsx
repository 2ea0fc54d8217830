// A WAI-ARIA tablist with automatic activation: arrows move and select, Home/End jump to the ends.
import { type ComponentType, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { NeedsScript } from "../../components/needs-script";

export interface TabSpec<T extends string> {
  id: T;
  label: string;
  panel: ComponentType;
}

export function Tabs<T extends string>({
  label,
  tabs,
  selected,
  onSelect,
}: {
  label: string;
  tabs: readonly TabSpec<T>[];
  selected: T;
  onSelect: (id: T) => void;
}) {
  const buttons = useRef(new Map<T, HTMLButtonElement>());
  // The tab last chosen, shown at once. The change of `selected` it asks for is a router
  // transition that a busy machine may finish only after the next keys, passing through the tabs
  // chosen on the way (Overview -> LSD -> Overview may render LSD after the second key). Until
  // `selected` has gone through every tab asked for, in order, the last one chosen is the
  // selected tab and the one in the Tab order; a change nobody asked for here (a link) wins.
  const [chosen, setChosen] = useState<T | null>(null);
  const asked = useRef<T[]>([]);
  useEffect(() => {
    const at = asked.current.indexOf(selected);
    asked.current = at === -1 ? [] : asked.current.slice(at + 1);
    if (asked.current.length === 0) setChosen(null);
  }, [selected]);
  const choose = (id: T) => {
    asked.current.push(id);
    // Rendered before the handler returns, so the focus, `tabIndex` and `aria-selected` agree
    // by the time the next key arrives.
    flushSync(() => setChosen(id));
    onSelect(id);
  };
  const index = Math.max(
    0,
    tabs.findIndex((tab) => tab.id === (chosen ?? selected)),
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Move on from the tab the key was pressed on.
    const pressedOn = tabs.findIndex((tab) => buttons.current.get(tab.id) === event.target);
    const from = pressedOn === -1 ? index : pressedOn;
    const last = tabs.length - 1;
    const target = {
      ArrowRight: from === last ? 0 : from + 1,
      ArrowLeft: from === 0 ? last : from - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = tabs[target];
    if (!next) return;
    choose(next.id);
    buttons.current.get(next.id)?.focus();
  };

  const active = tabs[index];
  return (
    <div className="tabs">
      <NeedsScript>Switching between these tabs needs JavaScript.</NeedsScript>
      <div role="tablist" aria-label={label} className="tabs__list" onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const isSelected = tab.id === active?.id;
          return (
            <button
              key={tab.id}
              ref={(node) => {
                if (node) buttons.current.set(tab.id, node);
                else buttons.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={`tab-${tab.id}`}
              aria-selected={isSelected}
              aria-controls={`panel-${tab.id}`}
              tabIndex={isSelected ? 0 : -1}
              className="tabs__tab"
              onClick={() => choose(tab.id)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {active && (
        <div
          role="tabpanel"
          id={`panel-${active.id}`}
          aria-labelledby={`tab-${active.id}`}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the APG tab pattern makes the panel focusable.
          tabIndex={0}
          className="tabs__panel"
        >
          <active.panel />
        </div>
      )}
    </div>
  );
}
