// The Deployment Information card: what the build says this deployment is.
import type { DeploymentInfo } from "../../lib/wasm/core";

function Flag({ on }: { on: boolean }) {
  return <span className={`flag flag--${on ? "on" : "off"}`}>{on ? "On" : "Off"}</span>;
}

export function DeploymentCard({ info }: { info: DeploymentInfo }) {
  return (
    <section className="card deployment-card" aria-labelledby="deployment-info">
      <h2 id="deployment-info" className="card__title">
        Deployment Information
      </h2>
      <dl className="facts">
        <div className="facts__row">
          <dt>Provisioning id</dt>
          <dd>
            <code className="facts__code">{info.id}</code>
          </dd>
        </div>
        <div className="facts__row">
          <dt>Type</dt>
          <dd className="facts__type">{info.type}</dd>
        </div>
        <div className="facts__row">
          <dt>Status</dt>
          <dd>
            <span className="status-word">
              <span className="status-word__dot" aria-hidden="true" />
              {info.status}
            </span>
          </dd>
        </div>
        <div className="facts__row">
          <dt>Apotheosis</dt>
          <dd>
            <Flag on={info.flags.apotheosis} />
          </dd>
        </div>
        <div className="facts__row">
          <dt>Sanctified</dt>
          <dd>
            <Flag on={info.flags.sanctified} />
          </dd>
        </div>
      </dl>
    </section>
  );
}
