// The four status cards of the landing page. Checks run on load and every 30 s (the wasm core decides).
import { Link } from "react-router-dom";
import { HealthBadge } from "../../components/health-badge";
import { paths } from "../../config/paths";
import type { DeploymentInfo } from "../../lib/wasm/core";
import { type HealthWithDatabase, useHealth } from "../../lib/wasm/use-health";

/** How the database card names the engine `/db-health` reports. */
const databaseNames: Record<string, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };

export function StatusCards({ info }: { info: DeploymentInfo }) {
  const health = useHealth({
    ethereal: info.ethereal,
    telekinesisQueueUrl: info.telekinesis_queue_url,
  });
  return <StatusCardList ethereal={info.ethereal} health={health} />;
}

/** The cards for a given health snapshot (split out so they can be rendered with any snapshot). */
export function StatusCardList({
  ethereal,
  health,
}: {
  ethereal: boolean;
  health: HealthWithDatabase;
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
      <ul className="status-cards">
        <li className="status-card" data-testid="card-frontend">
          <h3 className="status-card__name">Frontend</h3>
          <p className="status-card__state">
            <HealthBadge value="healthy" />
          </p>
          <p className="status-card__detail">This page, served to your browser.</p>
        </li>
        <li className="status-card" data-testid="card-server">
          <h3 className="status-card__name">Server</h3>
          <p className="status-card__state">
            <HealthBadge value={health.api} />
          </p>
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
            {ethereal ? (
              <span className="status-card__off">Disabled</span>
            ) : (
              <HealthBadge value={db} />
            )}
          </p>
          <p className="status-card__detail">
            {ethereal
              ? "Ethereal deployments have no database."
              : `${databaseNames[health.database ?? ""] ?? "The database"} behind /db-health.`}
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
          <p className="status-card__detail">
            {ethereal ? "No task queue on ethereal deployments." : "The event-driven task queue."}
          </p>
        </li>
      </ul>
    </section>
  );
}
