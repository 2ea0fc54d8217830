// The Deployment Information card: what the build says this deployment is.
import { Card } from "../../components/card";
import type { DeploymentInfo } from "../../lib/wasm/core";

function Flag({ on }: { on: boolean }) {
  return <span className={`flag flag--${on ? "on" : "off"}`}>{on ? "On" : "Off"}</span>;
}

export function DeploymentCard({ info }: { info: DeploymentInfo }) {
  return (
    <Card id="deployment-info" title="Deployment Information" className="deployment-card">
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
    </Card>
  );
}
