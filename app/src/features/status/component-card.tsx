// One component's card: the live state from this browser's checks, the server's uptime figures, the
// 90 daily bars and the 24 h latency. Every word comes from the wasm core's view of the card.
import { memo } from "react";
import { HealthBadge } from "../../components/health-badge";
import { StatedStatus } from "../../components/stated-status";
import { healthLabel } from "../../lib/wasm/core";
import type { CardView, LiveValue } from "../../lib/wasm/use-status-page";
import { DayBars } from "./day-bars";
import { Latency } from "./latency";

/** Memoised: a card re-renders only for a new `card` (the server's answers) or a new `live` value. */
export const ComponentCard = memo(function ComponentCard({
  card,
  live,
}: {
  card: CardView;
  live: LiveValue | undefined;
}) {
  const headingId = `component-${card.id}-name`;
  const head = (
    <>
      <h2 className="component__name" id={headingId}>
        {card.name}
      </h2>
      <HealthBadge
        value={live?.health ?? "unknown"}
        label={live?.label ?? ""}
        holds={healthLabel("unknown")}
      />
      {card.status && (
        <StatedStatus
          id={card.id}
          words={card.status}
          statusKey={card.statusKey ?? "unknown"}
          note={card.statusNote}
        />
      )}
    </>
  );
  if (card.unchecked) {
    return (
      <li
        className="card component"
        data-testid={`component-${card.id}`}
        aria-labelledby={headingId}
      >
        <div className="component__head">{head}</div>
        <p className="component__note">{card.note}</p>
      </li>
    );
  }
  return (
    <li className="card component" data-testid={`component-${card.id}`} aria-labelledby={headingId}>
      <div className="component__head">
        {head}
        <p className="component__checked">
          {card.checkedAt && card.checkedClock ? (
            <>
              Server check{" "}
              <time dateTime={card.checkedAt} data-testid={`last-check-${card.id}`}>
                {card.checkedClock}
              </time>
            </>
          ) : null}
        </p>
      </div>
      <dl className="uptime" data-testid={`uptime-${card.id}`}>
        {card.uptime.map((cell) => (
          <div key={cell.label}>
            <dt>{cell.label}</dt>
            <dd>{cell.value}</dd>
          </div>
        ))}
      </dl>
      {card.history ? (
        <div className="history">
          <section className="history__part" aria-label={`${card.name}: uptime per day`}>
            {card.history.barsMessage === null ? (
              <DayBars id={card.id} bars={card.history.bars} summary={card.history.barsSummary} />
            ) : (
              <div className="bars bars--waiting">
                <p className="history__message">{card.history.barsMessage}</p>
              </div>
            )}
            <div className="history__axis" aria-hidden="true">
              <span>90 days ago</span>
              {card.history.empty && <span className="history__empty">No checks recorded yet</span>}
              <span>Today</span>
            </div>
          </section>
          <Latency id={card.id} name={card.name} history={card.history} />
        </div>
      ) : (
        <div className="history history--placeholder">
          <p className="history__message">{card.historyMessage}</p>
        </div>
      )}
    </li>
  );
});
