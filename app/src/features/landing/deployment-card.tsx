// The Deployment Information card: what the build says this deployment is.
import type { ReactNode } from "react";
import { Card } from "../../components/card";
import type { DeploymentInfo } from "../../lib/wasm/core";

function Flag({ on }: { on: boolean }) {
  return <span className={`flag flag--${on ? "on" : "off"}`}>{on ? "On" : "Off"}</span>;
}

/** One row of the facts list: `term`, and what it is. */
function Fact({
  term,
  className,
  children,
}: {
  term: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="facts__row">
      <dt>{term}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

export function DeploymentCard({ info }: { info: DeploymentInfo }) {
  return (
    <Card id="deployment-info" title="Deployment Information" className="deployment-card">
      <dl className="facts">
        <Fact term="Provisioning id">
          <code className="facts__code">{info.id}</code>
        </Fact>
        <Fact term="Type" className="facts__type">
          {info.type}
        </Fact>
        <Fact term="Status">
          <span className="status-word">
            <span className="status-word__dot" aria-hidden="true" />
            {info.status}
          </span>
        </Fact>
        <Fact term="Apotheosis">
          <Flag on={info.flags.apotheosis} />
        </Fact>
        <Fact term="Sanctified">
          <Flag on={info.flags.sanctified} />
        </Fact>
      </dl>
    </Card>
  );
}
