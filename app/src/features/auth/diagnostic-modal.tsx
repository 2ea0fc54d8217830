// The callback page's diagnostic dialog: runs the four checks and shows pass or fail with a hint each.
import { useEffect, useState } from "react";
import { identityConfig } from "../../config/env";
import { useSession } from "../../lib/session/session-context";
import { type CheckResult, runDiagnostics } from "./diagnostics";
import { Modal } from "./modal";

export function DiagnosticModal({ onClose }: { onClose: () => void }) {
  const { ensureIdentity } = useSession();
  const [results, setResults] = useState<CheckResult[] | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    setResults(null);
    void runDiagnostics({
      config: identityConfig,
      origin: window.location.origin,
      ensureIdentity,
    }).then((found) => {
      if (live) setResults(found);
    });
    return () => {
      live = false;
    };
  }, [ensureIdentity, round]);

  return (
    <Modal title="Authentication Diagnostic" onClose={onClose} className="modal--guide">
      {results === null ? (
        <p role="status">
          <span className="spinner" aria-hidden="true" /> Running checks...
        </p>
      ) : (
        <ul className="diagnostic-list" aria-label="Checks">
          {results.map((result) => (
            <li key={result.id} className="diagnostic" data-check={result.id}>
              <div className="diagnostic__head">
                <span>{result.title}</span>
                <span
                  className={`diagnostic__result diagnostic__result--${result.passed ? "pass" : "fail"}`}
                >
                  {result.passed ? "✓ Pass" : "✗ Fail"}
                </span>
              </div>
              <p className="diagnostic__hint">{result.hint}</p>
            </li>
          ))}
        </ul>
      )}
      <div className="modal__actions">
        <button
          type="button"
          className="button"
          disabled={results === null}
          onClick={() => setRound((n) => n + 1)}
        >
          Run again
        </button>
        <button type="button" className="button button--primary" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
