import { readOnce, useMachineStore } from "mg-core/react";
import { useState } from "react";
import { deploymentConfig } from "../../config/env";
import { Deployment, type DeploymentConfig, type DeploymentInfo } from "./core";

/**
 * This deployment's info and landing texts (built by the wasm core from the build-time config), from
 * the first render on: the page chunks that call this import the core, which is instantiated before
 * they evaluate (in the browser and in the build's prerender alike), so the prerendered HTML and the
 * browser's first render hold the same info. An unreadable VITE_DEPLOYMENT_FLAGS is logged (after mount).
 */
export function useDeployment(config: DeploymentConfig = deploymentConfig): DeploymentInfo {
  // The first render's info; the mounted machine is made with the same creation time.
  const [initial] = useState(() =>
    readOnce(new Deployment(config, Date.now()), (first) => first.info()),
  );
  const { snapshot } = useMachineStore({
    create: () => {
      const deployment = new Deployment(config, initial.created);
      const warning = deployment.warning;
      if (warning) console.error(warning);
      return deployment;
    },
    read: (deployment): DeploymentInfo => deployment.info(),
    initial: () => initial,
  });
  return snapshot;
}
