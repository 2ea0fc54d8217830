// The round Wisdom button of apotheosis deployments; the wasm machine decides states and resets.
import { Card } from "../../components/card";
import { NeedsScript } from "../../components/needs-script";
import { useWisdom } from "../../lib/wasm/use-wisdom";

export function WisdomCard() {
  const { snapshot, disabled, ask } = useWisdom();
  return (
    <Card id="wisdom-heading" title="Wisdom" className="wisdom-card">
      <p className="card__hint">A round trip through the API: press for a quote from the server.</p>
      <NeedsScript>
        The button asks the server from your browser, which needs JavaScript.
      </NeedsScript>
      <div className="wisdom-card__body">
        <button
          type="button"
          className="wisdom-button"
          onClick={ask}
          disabled={disabled}
          aria-describedby="wisdom-output"
        >
          <span className="wisdom-button__label">{disabled ? "Asking…" : "Wisdom"}</span>
        </button>
        <div id="wisdom-output" className="wisdom-card__output" aria-live="polite">
          {snapshot.status === "idle" && (
            <p className="wisdom-card__idle">The answer appears here and clears itself.</p>
          )}
          {snapshot.status === "testing" && <p className="wisdom-card__idle">Asking the server…</p>}
          {snapshot.status === "success" && (
            <figure className="wisdom-quote" data-testid="wisdom-quote">
              <blockquote>
                <p className="wisdom-quote__text">{snapshot.quote}</p>
              </blockquote>
              <figcaption>— {snapshot.orator}</figcaption>
            </figure>
          )}
          {snapshot.status === "error" && (
            <div className="wisdom-error" role="alert" data-testid="wisdom-error">
              <p className="wisdom-error__title">{snapshot.error}</p>
              {snapshot.instructions && <p>{snapshot.instructions}</p>}
              {snapshot.message && <p className="wisdom-error__detail">{snapshot.message}</p>}
            </div>
          )}
        </div>
      </div>
    </Card>
  );
}
