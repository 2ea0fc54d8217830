// The four status cards of the landing page. Checks, and the read of the server's uptimes, run on
// load and every 30 s (the wasm core's HealthMachine decides).

import type { DatabaseName } from "@common/http-types";
import { paths } from "@common/routes";
import { Link } from "react-router-dom";
import { HealthBadge } from "../../components/health-badge";
import { NeedsScript } from "../../components/needs-script";
import {
  type DeploymentInfo,
  formatUptime,
  type HealthValue,
  healthLabel,
} from "../../lib/wasm/core";
import { type HealthWithDatabase, type Uptime24h, useHealth } from "../../lib/wasm/use-health";

/** How the database card names each engine `/db-health` reports. */
const databaseNames: Record<DatabaseName, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };

export function StatusCards({ info }: { info: DeploymentInfo }) {
  const health = useHealth({
    ethereal: info.ethereal,
    telekinesisQueueUrl: info.telekinesis_queue_url,
  });
  return <StatusCardList ethereal={info.ethereal} health={health} uptime={health.uptime} />;
}

/** The badge of one value, in the core's word for it. */
function Badge({ value }: { value: HealthValue }) {
  return <HealthBadge value={value} label={healthLabel(value)} />;
}

/** "99.98% uptime, 24 h" under the state; the line is always there, empty without a figure (no shift). */
function UptimeLine({ value, testId }: { value: number | null | undefined; testId: string }) {
  const figure = formatUptime(value);
  return (
    <p className="status-card__uptime" data-testid={testId}>
      {figure && (
        <>
          <span className="status-card__figure">{figure}</span> uptime, 24 h
        </>
      )}
    </p>
  );
}

/** The cards for a given health snapshot (split out so they can be rendered with any snapshot). */
export function StatusCardList({
  ethereal,
  health,
  uptime = {},
}: {
  ethereal: boolean;
  health: HealthWithDatabase;
  uptime?: Uptime24h;
}) {
  // Spec 2.2: the database card reads healthy, unhealthy or otherwise 'checking'.
  const db = health.db === "healthy" || health.db === "unhealthy" ? health.db : "unknown";
  return (
    <section className="status-section" aria-labelledby="status-heading">
      <div className="section-head">
        <h2 id="status-heading">System status</h2>
        <Link to={paths.status} className="section-head__link">
          Full status and history
        </Link>
      </div>
      <NeedsScript>
        These cards check the stack from your browser, which needs JavaScript. The server answers
        the same checks at <a href="/health">/health</a> and <a href="/db-health">/db-health</a>.
      </NeedsScript>
      <ul className="status-cards">
        <li className="status-card" data-testid="card-frontend">
          <h3 className="status-card__name">Frontend</h3>
          <p className="status-card__state">
            <Badge value="healthy" />
          </p>
          <UptimeLine value={undefined} testId="uptime-frontend" />
          <p className="status-card__detail">This page, served to your browser.</p>
        </li>
        <li className="status-card" data-testid="card-server">
          <h3 className="status-card__name">Server</h3>
          <p className="status-card__state">
            <Badge value={health.api} />
          </p>
          <UptimeLine value={health.api === "n/a" ? null : uptime.api} testId="uptime-server" />
          <p className="status-card__detail">
            {health.api === "n/a" ? "No API on this deployment." : "The API answering /health."}
          </p>
        </li>
        <li
          className={`status-card${ethereal ? " status-card--disabled" : ""}`}
          data-testid="card-database"
          aria-disabled={ethereal || undefined}
        >
          <h3 className="status-card__name">Database</h3>
          <p className="status-card__state">
            {ethereal ? <span className="status-card__off">Disabled</span> : <Badge value={db} />}
          </p>
          <UptimeLine value={ethereal ? null : uptime.db} testId="uptime-database" />
          <p className="status-card__detail">
            {ethereal
              ? "Ethereal deployments have no database."
              : `${health.database ? databaseNames[health.database] : "The database"} behind /db-health.`}
          </p>
        </li>
        <li
          className={`status-card${ethereal ? " status-card--disabled" : ""}`}
          data-testid="card-telekinesis"
          aria-disabled={ethereal || undefined}
        >
          <h3 className="status-card__name">Telekinesis</h3>
          <p className="status-card__state">
            {ethereal ? (
              <span className="status-card__off">Disabled</span>
            ) : (
              <Link to={paths.telekinesis} className="status-card__link">
                Open Telekinesis
              </Link>
            )}
          </p>
          <UptimeLine value={ethereal ? null : uptime.queue} testId="uptime-telekinesis" />
          <p className="status-card__detail">
            {ethereal ? "No task queue on ethereal deployments." : "The event-driven task queue."}
          </p>
        </li>
      </ul>
    </section>
  );
}
