// /apotheosis: the live health of the stack (the wasm health machine, every 30 s) beside the server's
// history: 90 daily uptime bars, the 24 h latency (p50/p95), uptime figures and incidents.
import { useRef, useState } from "react";
import { usePageMeta } from "../../components/document-title";
import { HealthBadge } from "../../components/health-badge";
import { NeedsScript } from "../../components/needs-script";
import { GraphicsWidget } from "../../graphics/graphics-widget";
import {
  type ComponentStatus,
  formatUptime,
  type HistoryPoint,
  type Incident,
  type StatusSummary,
  type UptimeWindow,
  useStatusHistory,
  useStatusSummary,
} from "../../lib/status-api";
import type { HealthValue } from "../../lib/wasm/core";
import { useDeployment } from "../../lib/wasm/use-deployment";
import { useHealth } from "../../lib/wasm/use-health";
import {
  barsSummary,
  DAYS,
  type DayBar,
  dayBars,
  formatClock,
  formatMs,
  latencyChart,
} from "./history-shape";
import "./status.css";

export function StatusPage() {
  usePageMeta(
    "Apotheosis status",
    "Live health of the deployed stack: API, database and task queue, with 90 days of uptime, latency and incidents.",
  );
  const info = useDeployment();
  return (
    <main id="main" className="page status-page">
      <div className="page-intro">
        <div>
          <p className="eyebrow">Stack status</p>
          <h1>Apotheosis status</h1>
          <p className="page__lead">
            Health of the deployed stack, checked by this page every 30 seconds. The server checks
            each component on its own schedule and keeps 90 days of history.
          </p>
        </div>
        <GraphicsWidget scene="hypercube" size={220} className="page-intro__art" />
      </div>
      <NeedsScript>
        This page checks the stack and draws its history in your browser, which needs JavaScript.
        The raw endpoints at the end of the page answer without it.
      </NeedsScript>
      {/* The deployment info is there from the first render (prerendered too); every part of a card
          has its height before its data (CLS 0). */}
      <Components ethereal={info.ethereal} queueUrl={info.telekinesis_queue_url} />
      <Endpoints />
    </main>
  );
}

function Endpoints() {
  return (
    <section className="card endpoints" aria-labelledby="endpoints-heading">
      <h2 id="endpoints-heading" className="card__title">
        Raw endpoints
      </h2>
      <p className="card__hint">The same checks, as the server answers them.</p>
      <ul className="endpoints__list">
        <li>
          <a href="/health">/health</a> <span>the API process</span>
        </li>
        <li>
          <a href="/api/health">/api/health</a> <span>the API behind its /api prefix</span>
        </li>
        <li>
          <a href="/db-health">/db-health</a> <span>a round trip to the database</span>
        </li>
        <li>
          <a href="/api/status">/api/status</a> <span>the server's summary and incidents</span>
        </li>
      </ul>
    </section>
  );
}

/** Where the server's answers stand, for the parts of a card that wait for them. */
interface Loaded {
  loading: boolean;
  error: string | undefined;
}

function Components({ ethereal, queueUrl }: { ethereal: boolean; queueUrl: string | undefined }) {
  const health = useHealth({ ethereal, telekinesisQueueUrl: queueUrl });
  // An ethereal deployment has no API, so no server history to ask for.
  const summary = useStatusSummary(!ethereal);
  const find = (id: string) => summary.data?.components.find((c) => c.id === id);
  const loaded: Loaded = { loading: summary.loading, error: summary.error };
  const cards: {
    id: string;
    name: string;
    live: HealthValue;
    absent: string;
    unchecked?: boolean;
  }[] = [
    {
      id: "api",
      name: "API",
      live: health.api,
      absent: ethereal
        ? "Ethereal deployments have no API, so nothing is checked."
        : "The server has not checked its API yet.",
      unchecked: ethereal,
    },
    {
      id: "db",
      name: "Database",
      live: health.db,
      absent: ethereal
        ? "Ethereal deployments have no database, so nothing is checked."
        : "This deployment has no database to check.",
      unchecked: ethereal,
    },
    {
      id: "queue",
      name: "Telekinesis queue",
      live: health.queue,
      absent: queueUrl
        ? "The server does not check the queue: it has no queue address configured."
        : "No Telekinesis queue is configured for this deployment, so it has no history.",
      // Known from the deployment info before any answer, so the card has its final size at once.
      unchecked: ethereal || !queueUrl,
    },
  ];
  return (
    <>
      <ul className="status-list">
        {cards.map((card) => (
          <ComponentCard
            key={card.id}
            {...card}
            status={find(card.id)}
            loaded={loaded}
            hasSummary={summary.data !== undefined}
          />
        ))}
      </ul>
      {!ethereal && <Incidents summary={summary.data} loaded={loaded} />}
    </>
  );
}

const WINDOWS: { key: UptimeWindow; label: string }[] = [
  { key: "24h", label: "24 h" },
  { key: "7d", label: "7 days" },
  { key: "30d", label: "30 days" },
  { key: "90d", label: "90 days" },
];

function ComponentCard({
  id,
  name,
  live,
  absent,
  unchecked,
  status,
  loaded,
  hasSummary,
}: {
  id: string;
  name: string;
  live: HealthValue;
  absent: string;
  unchecked?: boolean;
  status: ComponentStatus | undefined;
  loaded: Loaded;
  hasSummary: boolean;
}) {
  const headingId = `component-${id}-name`;
  if (unchecked) {
    return (
      <li className="card component" data-testid={`component-${id}`} aria-labelledby={headingId}>
        <div className="component__head">
          <h2 className="component__name" id={headingId}>
            {name}
          </h2>
          {/* Nothing is checked here (no queue configured, or an ethereal deployment), so the
              machine's value stays 'unknown' (spec 4); the card says so instead of 'Checking'. */}
          <HealthBadge value={live === "unknown" ? "n/a" : live} />
        </div>
        <p className="component__note">{absent}</p>
      </li>
    );
  }
  return (
    <li className="card component" data-testid={`component-${id}`} aria-labelledby={headingId}>
      <div className="component__head">
        <h2 className="component__name" id={headingId}>
          {name}
        </h2>
        <HealthBadge value={live} />
        <p className="component__checked">
          {status?.last_checked_at ? (
            <>
              Server check{" "}
              <time dateTime={status.last_checked_at} data-testid={`last-check-${id}`}>
                {formatClock(status.last_checked_at)} UTC
              </time>
            </>
          ) : null}
        </p>
      </div>
      <dl className="uptime" data-testid={`uptime-${id}`}>
        {WINDOWS.map((window) => (
          <div key={window.key}>
            <dt>{window.label}</dt>
            <dd>{formatUptime(status?.uptime[window.key]) ?? "—"}</dd>
          </div>
        ))}
      </dl>
      {status ? (
        <History id={id} name={name} status={status} />
      ) : (
        <div className="history history--placeholder">
          <p className="history__message">
            {loaded.loading
              ? "Loading history…"
              : hasSummary
                ? absent
                : `History unavailable right now (${loaded.error ?? "no answer"}). The live state above still updates every 30 seconds.`}
          </p>
        </div>
      )}
    </li>
  );
}

function History({ id, name, status }: { id: string; name: string; status: ComponentStatus }) {
  const daily = useStatusHistory(id, "90d");
  const recent = useStatusHistory(id, "24h");
  const bars = dayBars(daily.data?.points, Date.now());
  const empty = daily.data !== undefined && bars.every((bar) => bar.uptime === null);
  return (
    <div className="history">
      <section className="history__part" aria-label={`${name}: uptime per day`}>
        {daily.data ? (
          <DayBars id={id} bars={bars} summary={barsSummary(name, bars, status.uptime["90d"])} />
        ) : (
          <div className="bars bars--waiting">
            <p className="history__message">
              {daily.error ? `Daily history unavailable (${daily.error}).` : "Loading history…"}
            </p>
          </div>
        )}
        <div className="history__axis" aria-hidden="true">
          <span>90 days ago</span>
          {empty && <span className="history__empty">No checks recorded yet</span>}
          <span>Today</span>
        </div>
      </section>
      <Latency
        id={id}
        name={name}
        points={recent.data?.points}
        error={recent.error}
        p50={status.latency_24h?.p50_ms ?? null}
        p95={status.latency_24h?.p95_ms ?? null}
      />
    </div>
  );
}

/** 90 bars in one tab stop: arrows move between days; focus and hover show the same tooltip. */
function DayBars({ id, bars, summary }: { id: string; bars: DayBar[]; summary: string }) {
  const [shown, setShown] = useState<number | null>(null);
  const [stop, setStop] = useState(DAYS - 1);
  const refs = useRef<(HTMLSpanElement | null)[]>([]);
  const move = (to: number) => {
    const index = Math.max(0, Math.min(bars.length - 1, to));
    setStop(index);
    refs.current[index]?.focus();
  };
  const onKeyDown = (event: React.KeyboardEvent, index: number) => {
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
  const anchor = shown === null ? "mid" : shown < 15 ? "start" : shown > DAYS - 16 ? "end" : "mid";
  return (
    <div className="bars">
      <p className="visually-hidden" data-testid={`bars-summary-${id}`}>
        {summary}
      </p>
      {/* biome-ignore lint/a11y/useSemanticElements: a group of day bars, not a form fieldset. */}
      <div
        className="bars__row"
        role="group"
        aria-label="Uptime per day, last 90 days; arrow keys move between days"
        data-testid={`bars-${id}`}
        onMouseLeave={() => setShown(null)}
      >
        {bars.map((bar, index) => (
          <span
            key={bar.date}
            ref={(node) => {
              refs.current[index] = node;
            }}
            className={`bar bar--${bar.tone}`}
            role="img"
            aria-label={bar.text}
            tabIndex={index === stop ? 0 : -1}
            data-date={bar.date}
            onMouseEnter={() => setShown(index)}
            onFocus={() => {
              setStop(index);
              setShown(index);
            }}
            onBlur={() => setShown(null)}
            onKeyDown={(event) => onKeyDown(event, index)}
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
          <strong>{tip.text.split(": ")[0]}</strong>
          <span>{tip.text.split(": ")[1]}</span>
        </div>
      )}
    </div>
  );
}

const CHART_W = 600;
const CHART_H = 120;

function Latency({
  id,
  name,
  points,
  error,
  p50,
  p95,
}: {
  id: string;
  name: string;
  points: HistoryPoint[] | undefined;
  error: string | undefined;
  p50: number | null;
  p95: number | null;
}) {
  const chart = points ? latencyChart(points, CHART_W, CHART_H) : undefined;
  const rows = (points ?? []).filter((point) => point.checks > 0);
  const captionId = `latency-${id}-caption`;
  return (
    <figure className="latency" aria-labelledby={captionId} data-testid={`latency-${id}`}>
      <figcaption className="latency__head" id={captionId}>
        <span className="latency__title">Latency, last 24 h</span>
        <span className="latency__legend">
          <span className="latency__key latency__key--p50">p50 {formatMs(p50)}</span>
          <span className="latency__key latency__key--p95">p95 {formatMs(p95)}</span>
        </span>
      </figcaption>
      <div
        className={`latency__plot${chart && chart.buckets > 0 ? "" : " latency__plot--message"}`}
      >
        {chart && chart.buckets > 0 ? (
          <>
            <span className="latency__tick latency__tick--top" aria-hidden="true">
              {chart.max} ms
            </span>
            <span className="latency__tick latency__tick--bottom" aria-hidden="true">
              0
            </span>
            <svg
              className="latency__svg"
              viewBox={`0 0 ${CHART_W} ${CHART_H}`}
              preserveAspectRatio="none"
              aria-hidden="true"
              focusable="false"
            >
              <line className="latency__grid" x1={0} x2={CHART_W} y1={0} y2={0} />
              <line
                className="latency__grid"
                x1={0}
                x2={CHART_W}
                y1={CHART_H / 2}
                y2={CHART_H / 2}
              />
              <line className="latency__base" x1={0} x2={CHART_W} y1={CHART_H} y2={CHART_H} />
              <path className="latency__line latency__line--p95" d={chart.p95.line} />
              <path className="latency__line latency__line--p50" d={chart.p50.line} />
              <path className="latency__dots latency__dots--p95" d={chart.p95.dots} />
              <path className="latency__dots latency__dots--p50" d={chart.p50.dots} />
            </svg>
          </>
        ) : (
          <p className="history__message">
            {error && !points
              ? `Latency history unavailable (${error}).`
              : points
                ? "No checks recorded yet"
                : "Loading latency…"}
          </p>
        )}
      </div>
      <div className="history__axis" aria-hidden="true">
        <span>24 h ago</span>
        <span>Now</span>
      </div>
      {/* A table ignores its own width, so the clipping box is a div around it. */}
      <div className="visually-hidden">
        <table data-testid={`latency-table-${id}`}>
          <caption>{name} latency per 15 minutes over the last 24 hours (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">p50</th>
              <th scope="col">p95</th>
              <th scope="col">Checks</th>
              <th scope="col">Failed</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={5}>No checks recorded yet</td>
              </tr>
            ) : (
              rows.map((point) => (
                <tr key={point.start}>
                  <th scope="row">{formatClock(point.start)}</th>
                  <td>{formatMs(point.latency_p50_ms)}</td>
                  <td>{formatMs(point.latency_p95_ms)}</td>
                  <td>{point.checks}</td>
                  <td>{point.failures}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

function Incidents({ summary, loaded }: { summary: StatusSummary | undefined; loaded: Loaded }) {
  const open = summary?.open_incidents ?? [];
  const recent = summary?.recent_incidents ?? [];
  return (
    <section className="card incidents" aria-labelledby="incidents-heading" data-testid="incidents">
      <h2 id="incidents-heading" className="card__title">
        Incidents
      </h2>
      {!summary ? (
        <p className="card__hint">
          {loaded.loading ? "Loading incidents…" : "The incident list is unavailable right now."}
        </p>
      ) : open.length + recent.length === 0 ? (
        <p className="card__hint">No incidents in the last 90 days.</p>
      ) : (
        <ul className="incidents__list">
          {[...open, ...recent].map((incident) => (
            <IncidentItem key={incident.id} incident={incident} />
          ))}
        </ul>
      )}
    </section>
  );
}

function stamp(at: string): string {
  const date = new Date(at);
  const day = date.toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  });
  return `${day}, ${formatClock(at)}`;
}

function duration(from: string, to: string): string {
  const minutes = Math.max(1, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

function IncidentItem({ incident }: { incident: Incident }) {
  const ongoing = incident.ended_at === null;
  return (
    <li className={`incident${ongoing ? " incident--open" : ""}`}>
      <p className="incident__head">
        <span className="incident__component">{incident.component_name}</span>
        <span className={`incident__state${ongoing ? " incident__state--open" : ""}`}>
          {ongoing ? "Ongoing" : "Resolved"}
        </span>
      </p>
      <p className="incident__time">
        <time dateTime={incident.started_at}>{stamp(incident.started_at)}</time>
        {incident.ended_at ? (
          <>
            {" – "}
            <time dateTime={incident.ended_at}>{stamp(incident.ended_at)}</time> UTC (
            {duration(incident.started_at, incident.ended_at)})
          </>
        ) : (
          " UTC, still open"
        )}
      </p>
      <p className="incident__error">{incident.first_error}</p>
    </li>
  );
}
