// /apotheosis: the deployed stack's health, when each check last ran, its latency and this session's history.
import { usePageMeta } from "../../components/document-title";
import { HealthBadge } from "../../components/health-badge";
import type { HealthValue } from "../../lib/wasm/core";
import { useDeployment } from "../../lib/wasm/use-deployment";
import { useHealth } from "../../lib/wasm/use-health";
import { Sparkline } from "./sparkline";
import { type CheckSample, useCheckHistory } from "./use-check-history";
import "./status.css";
import { GraphicsWidget } from "../../graphics/graphics-widget";

export function StatusPage() {
  usePageMeta(
    "Apotheosis status",
    "Live health of the deployed stack: API, database and task queue, with check times, latency and history.",
  );
  const info = useDeployment();
  return (
    <main id="main" className="page status-page">
      <div className="page-intro">
        <div>
          <p className="eyebrow">Stack status</p>
          <h1>Apotheosis status</h1>
          <p className="page__lead">
            Health of the deployed stack, checked when this page opens and every 30 seconds. The
            charts show this browser session's checks.
          </p>
        </div>
        <GraphicsWidget scene="hypercube" size={220} className="page-intro__art" />
      </div>
      {/* Rendered together once the deployment info is there (right after mount), so the endpoints
          card never moves when the component cards appear (CLS 0). */}
      {info && (
        <>
          <Components ethereal={info.ethereal} queueUrl={info.telekinesis_queue_url} />
          <Endpoints />
        </>
      )}
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
      </ul>
    </section>
  );
}

function Components({ ethereal, queueUrl }: { ethereal: boolean; queueUrl: string | undefined }) {
  const health = useHealth({ ethereal, telekinesisQueueUrl: queueUrl });
  const history = useCheckHistory();
  return (
    <ul className="status-grid">
      <ComponentCard
        id="api"
        name="API"
        endpoint="/health"
        value={health.api}
        samples={history.api}
      />
      <ComponentCard
        id="db"
        name="Database"
        endpoint="/db-health"
        value={health.db}
        samples={history.db}
      />
      <li className="card component" data-testid="component-queue">
        <div className="component__head">
          <h2 className="component__name">Queue</h2>
          <HealthBadge value={health.queue} />
        </div>
        <p className="component__note">
          {queueUrl
            ? "Read from the configured Telekinesis queue address; no request is sent from here."
            : "No Telekinesis queue is configured for this deployment, so its state stays unknown."}
        </p>
      </li>
    </ul>
  );
}

function ComponentCard({
  id,
  name,
  endpoint,
  value,
  samples,
}: {
  id: string;
  name: string;
  endpoint: string;
  value: HealthValue;
  samples: CheckSample[];
}) {
  const last = samples[samples.length - 1];
  return (
    <li className="card component" data-testid={`component-${id}`}>
      <div className="component__head">
        <h2 className="component__name">{name}</h2>
        <HealthBadge value={value} />
      </div>
      {value === "n/a" ? (
        <p className="component__note">Not checked: this deployment has no {name.toLowerCase()}.</p>
      ) : (
        <>
          <dl className="component__facts">
            <div>
              <dt>Last check</dt>
              <dd data-testid={`last-check-${id}`}>
                {last ? (
                  <time dateTime={new Date(last.at).toISOString()}>{formatTime(last.at)}</time>
                ) : (
                  "—"
                )}
              </dd>
            </div>
            <div>
              <dt>Latency</dt>
              <dd data-testid={`latency-${id}`}>{last ? `${last.latencyMs} ms` : "—"}</dd>
            </div>
            <div className="component__endpoint">
              <dt>Endpoint</dt>
              <dd>
                <code>{endpoint}</code>
              </dd>
            </div>
          </dl>
          <Sparkline samples={samples} label={`${name} check`} />
        </>
      )}
    </li>
  );
}

function formatTime(at: number): string {
  return new Date(at).toLocaleTimeString(undefined, {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hour12: false,
  });
}
