import { deploymentConfig } from "../../config/env";
import { Deployment, type DeploymentConfig, type DeploymentInfo } from "./core";
import { useMachine } from "./use-machine";

/**
 * This deployment's info and landing texts (built by the wasm core from the build-time config).
 * `null` until mounted. An unreadable VITE_DEPLOYMENT_FLAGS is logged and the defaults are used.
 */
export function useDeployment(config: DeploymentConfig = deploymentConfig): DeploymentInfo | null {
  const { snapshot } = useMachine(
    () => {
      const deployment = new Deployment(config, Date.now());
      const warning = deployment.warning;
      if (warning) console.error(warning);
      return deployment;
    },
    (deployment): DeploymentInfo | null => deployment.info(),
    null,
  );
  return snapshot;
}
