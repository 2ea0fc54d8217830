// The four status cards of the landing page. Checks, and the read of the server's uptimes and
// stated statuses, run on load and every 30 s (the wasm core's HealthMachine decides). Each card
// shows, beside this browser's check, the status the server states (the one combining rule of the
// checks, the maintenance windows and what operators declare), as the status page's cards do.

import type { DatabaseName } from "@common/http-types";
import { paths } from "@common/routes";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { HealthBadge } from "../../components/health-badge";
import { NeedsScript } from "../../components/needs-script";
import { StatedStatus } from "../../components/stated-status";
import {
  type DeploymentInfo,
  formatUptime,
  type HealthValue,
  healthLabel,
} from "../../lib/wasm/core";
import {
  type HealthWithDatabase,
  type Stated,
  type StatedStatuses,
  type Uptime24h,
  useHealth,
} from "../../lib/wasm/use-health";

/** How the database card names each engine `/db-health` reports. */
const databaseNames: Record<DatabaseName, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };

export function StatusCards({ info }: { info: DeploymentInfo }) {
  const health = useHealth({
    ethereal: info.ethereal,
    telekinesisQueueUrl: info.telekinesis_queue_url,
  });
  return (
    <StatusCardList
      ethereal={info.ethereal}
      health={health}
      uptime={health.uptime}
      stated={health.stated}
    />
  );
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

/** The status the server states of the card's component, in its words; the line is always there,
 * empty before the server's answer (no shift). */
function StatedLine({ id, stated }: { id: string; stated: Stated | undefined }) {
  return (
    <div className="status-card__stated">
      {stated && (
        <StatedStatus id={id} words={stated.words} statusKey={stated.status} note={stated.note} />
      )}
    </div>
  );
}

/**
 * One card: its name, state, stated status and uptime line, and what it checks. A disabled card (an
 * ethereal deployment's database and queue) says "Disabled" in place of its state and shows no
 * stated status or uptime.
 */
function StatusCard({
  name,
  id,
  disabled = false,
  state,
  stated,
  uptime,
  detail,
}: {
  name: string;
  id: string;
  disabled?: boolean;
  state: ReactNode;
  stated: Stated | undefined;
  uptime: number | null | undefined;
  detail: string;
}) {
  return (
    <li
      className={`status-card${disabled ? " status-card--disabled" : ""}`}
      data-testid={`card-${id}`}
      aria-disabled={disabled || undefined}
    >
      <h3 className="status-card__name">{name}</h3>
      <p className="status-card__state">
        {disabled ? <span className="status-card__off">Disabled</span> : state}
      </p>
      <StatedLine id={id} stated={disabled ? undefined : stated} />
      <UptimeLine value={disabled ? null : uptime} testId={`uptime-${id}`} />
      <p className="status-card__detail">{detail}</p>
    </li>
  );
}

/** The cards for a given health snapshot (split out so they can be rendered with any snapshot). */
export function StatusCardList({
  ethereal,
  health,
  uptime = {},
  stated = {},
}: {
  ethereal: boolean;
  health: HealthWithDatabase;
  uptime?: Uptime24h;
  stated?: StatedStatuses;
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
        <StatusCard
          name="Frontend"
          id="frontend"
          state={<Badge value="healthy" />}
          stated={undefined}
          uptime={undefined}
          detail="This page, served to your browser."
        />
        <StatusCard
          name="Server"
          id="server"
          state={<Badge value={health.api} />}
          stated={health.api === "n/a" ? undefined : stated.api}
          uptime={health.api === "n/a" ? null : uptime.api}
          detail={
            health.api === "n/a" ? "No API on this deployment." : "The API answering /health."
          }
        />
        <StatusCard
          name="Database"
          id="database"
          disabled={ethereal}
          state={<Badge value={db} />}
          stated={stated.db}
          uptime={uptime.db}
          detail={
            ethereal
              ? "Ethereal deployments have no database."
              : `${health.database ? databaseNames[health.database] : "The database"} behind /db-health.`
          }
        />
        <StatusCard
          name="Telekinesis"
          id="telekinesis"
          disabled={ethereal}
          state={
            <Link to={paths.telekinesis} className="status-card__link">
              Open Telekinesis
            </Link>
          }
          stated={stated.queue}
          uptime={uptime.queue}
          detail={
            ethereal ? "No task queue on ethereal deployments." : "The event-driven task queue."
          }
        />
      </ul>
    </section>
  );
}
