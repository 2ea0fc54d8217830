// The words and colour of one health value, shared by the landing cards and the status page.
import type { HealthValue } from "../lib/wasm/core";

const labels = {
  healthy: "Healthy",
  unhealthy: "Unhealthy",
  "n/a": "Not applicable",
  unknown: "Checking",
} as const satisfies Record<HealthValue, string>;

/**
 * A pill with a shape and a word, so the state never depends on colour alone. `label` replaces the
 * usual word where the wasm core decided another one (the status page's cards).
 */
export function HealthBadge({ value, label }: { value: HealthValue; label?: string }) {
  const tone = value === "n/a" ? "na" : value;
  return (
    <span className={`health-badge health-badge--${tone}`} data-health={value}>
      <span className="health-badge__dot" aria-hidden="true" />
      {label ?? labels[value]}
    </span>
  );
}
