// What the server states of a component (its status by the one combining rule: the checks, the
// maintenance windows in progress and what operators declare), shared by the status page's cards and
// the landing's, so the two never say different things. The words are the wasm core's.
import "./stated-status.css";

/**
 * A pill (a dot in the status's colour beside its words) and, when it is not the checks' measure,
 * why ("Declared by the operators"). `statusKey` is the status's word in the server's vocabulary
 * (`major_outage`), which picks the colour.
 */
export function StatedStatus({
  id,
  words,
  statusKey,
  note,
}: {
  id: string;
  words: string;
  statusKey: string;
  note: string;
}) {
  return (
    <p className={`component__stated component__stated--${statusKey}`} data-testid={`stated-${id}`}>
      <span className="component__stated-pill">
        <span className="component__stated-dot" aria-hidden="true" />
        {words}
      </span>
      {note && <span className="component__stated-why">{note}</span>}
    </p>
  );
}
