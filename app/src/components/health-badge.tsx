// The colour and word of one health value, shared by the landing cards and the status page.
import type { HealthValue } from "../lib/wasm/core";

/**
 * A pill with a shape and a word, so the state never depends on colour alone. The word is the wasm
 * core's (`healthLabel` on the landing cards, the status page machine's live values), never chosen here.
 *
 * `holds` is a word whose width the pill keeps at least (the word it is prerendered with), so a
 * shorter word arriving later ("Checking" to "Healthy") moves nothing beside it on the same line.
 */
export function HealthBadge({
  value,
  label,
  holds,
}: {
  value: HealthValue;
  label: string;
  holds?: string;
}) {
  const tone = value === "n/a" ? "na" : value;
  return (
    <span className={`health-badge health-badge--${tone}`} data-health={value}>
      <span className="health-badge__dot" aria-hidden="true" />
      {holds ? (
        <span className="health-badge__word" data-holds={holds}>
          {label}
        </span>
      ) : (
        label
      )}
    </span>
  );
}
