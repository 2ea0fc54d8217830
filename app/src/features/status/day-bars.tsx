// 90 daily bars in one tab stop: arrows move between days; focus and hover show the same tooltip.
// The handlers sit on the row (one of each, not 90), so hydrating the bars costs little.
import { memo, useRef, useState } from "react";
import type { DayBar } from "../../lib/wasm/use-status-page";

/** The bar index an event happened on, from its `data-index`. */
function indexOf(target: EventTarget): number | undefined {
  const value = (target as HTMLElement).dataset?.index;
  return value === undefined ? undefined : Number(value);
}

/** Memoised: the bars re-render only when the server's answers gave new ones. */
export const DayBars = memo(function DayBars({
  id,
  bars,
  summary,
}: {
  id: string;
  bars: DayBar[];
  summary: string;
}) {
  const [shown, setShown] = useState<number | null>(null);
  const [stop, setStop] = useState(bars.length - 1);
  const row = useRef<HTMLDivElement>(null);
  const move = (to: number) => {
    const index = Math.max(0, Math.min(bars.length - 1, to));
    setStop(index);
    (row.current?.children[index] as HTMLElement | undefined)?.focus();
  };
  const onKeyDown = (event: React.KeyboardEvent) => {
    const index = indexOf(event.target);
    if (index === undefined) return;
    const target = {
      ArrowLeft: index - 1,
      ArrowRight: index + 1,
      Home: 0,
      End: bars.length - 1,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    move(target);
  };
  const tip = shown === null ? undefined : bars[shown];
  // Near the ends the tooltip is anchored to its bar's side, so it never leaves the card.
  const anchor =
    shown === null ? "mid" : shown < 15 ? "start" : shown > bars.length - 16 ? "end" : "mid";
  return (
    <div className="bars">
      <p className="visually-hidden" data-testid={`bars-summary-${id}`}>
        {summary}
      </p>
      {/* biome-ignore lint/a11y/useSemanticElements: a group of day bars, not a form fieldset. */}
      <div
        ref={row}
        className="bars__row"
        role="group"
        aria-label="Uptime per day, last 90 days; arrow keys move between days"
        data-testid={`bars-${id}`}
        onMouseOver={(event) => {
          const index = indexOf(event.target);
          if (index !== undefined) setShown(index);
        }}
        onMouseLeave={() => setShown(null)}
        onFocus={(event) => {
          const index = indexOf(event.target);
          if (index === undefined) return;
          setStop(index);
          setShown(index);
        }}
        onBlur={() => setShown(null)}
        onKeyDown={onKeyDown}
      >
        {bars.map((bar, index) => (
          <span
            key={bar.date}
            className={`bar bar--${bar.tone}`}
            role="img"
            aria-label={bar.label}
            tabIndex={index === stop ? 0 : -1}
            data-date={bar.date}
            data-index={index}
          />
        ))}
      </div>
      {tip && shown !== null && (
        <div
          className={`bars__tip bars__tip--${anchor}`}
          style={{ left: `${((shown + 0.5) / bars.length) * 100}%` }}
          aria-hidden="true"
          data-testid={`bar-tooltip-${id}`}
        >
          <strong>{tip.day}</strong>
          <span>{tip.detail}</span>
        </div>
      )}
    </div>
  );
});

/** What each bar's look means, in the core's tones (`Tone`: none, up, minor, down, maintenance). */
const LEGEND: [DayBar["tone"], string][] = [
  ["up", "Up (99.9% or more)"],
  ["minor", "Partial (95% or more)"],
  ["down", "Outage"],
  ["maintenance", "Maintenance (dashed)"],
  ["none", "No data"],
];

/** The bars' key, once above the cards: also in the prerendered page, before any data. */
export function BarsLegend() {
  return (
    <div data-testid="bars-legend">
      <ul className="bars-legend" aria-label="Day bars">
        {LEGEND.map(([tone, text]) => (
          <li key={tone}>
            <span className={`bar bar--${tone}`} aria-hidden="true" />
            {text}
          </li>
        ))}
      </ul>
      <p className="bars-legend__note">
        A day whose checks failed only inside a maintenance window shows as maintenance. Checks
        inside maintenance windows are left out of the uptime figures.
      </p>
    </div>
  );
}
