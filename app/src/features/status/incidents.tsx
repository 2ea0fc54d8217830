// The incident list: open ones first, then those resolved in the last 90 days, as the core words them.
import { memo } from "react";
import type { IncidentView, StatusView } from "../../lib/wasm/use-status-page";

export const Incidents = memo(function Incidents({ view }: { view: StatusView }) {
  return (
    <section className="card incidents" aria-labelledby="incidents-heading" data-testid="incidents">
      <h2 id="incidents-heading" className="card__title">
        Incidents
      </h2>
      {view.incidentsMessage !== null ? (
        <p className="card__hint">{view.incidentsMessage}</p>
      ) : (
        <ul className="incidents__list">
          {view.incidents.map((incident) => (
            <IncidentItem key={incident.id} incident={incident} />
          ))}
        </ul>
      )}
    </section>
  );
});

function IncidentItem({ incident }: { incident: IncidentView }) {
  const open = incident.ongoing ? " incident--open" : "";
  return (
    <li className={`incident${open}`}>
      <p className="incident__head">
        <span className="incident__component">{incident.componentName}</span>
        <span className={`incident__state${incident.ongoing ? " incident__state--open" : ""}`}>
          {incident.state}
        </span>
      </p>
      <p className="incident__time">
        <time dateTime={incident.startedAt}>{incident.started}</time>
        {incident.endedAt && (
          <>
            {" – "}
            <time dateTime={incident.endedAt}>{incident.ended}</time>
          </>
        )}
        {incident.tail}
      </p>
      <p className="incident__error">{incident.error}</p>
    </li>
  );
}
