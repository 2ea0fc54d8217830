// A WAI-ARIA tablist with automatic activation: arrows move and select, Home/End jump to the ends.
import { type ComponentType, type KeyboardEvent, useRef } from "react";
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
  const index = Math.max(
    0,
    tabs.findIndex((tab) => tab.id === selected),
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Move on from the tab the key was pressed on, not from the one this render selected: a tab
    // change updates the address at once, but the re-render it causes is a router transition that
    // a busy machine may finish only after the next key. Focus moves synchronously below, so the
    // next key lands on the tab just chosen.
    const pressedOn = tabs.findIndex((tab) => buttons.current.get(tab.id) === event.target);
    if (event.key === "Tab") {
      // Tab leaves from the tab that has the focus: until the re-render catches up, the tab left
      // behind may still be in the Tab order, and Tab would land on it instead of the panel (or,
      // with Shift, before the tablist). The render that follows sets the same values.
      const focused = tabs[pressedOn]?.id;
      if (focused === undefined) return;
      for (const [id, button] of buttons.current) button.tabIndex = id === focused ? 0 : -1;
      return;
    }
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
    onSelect(next.id);
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
              onClick={() => onSelect(tab.id)}
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
