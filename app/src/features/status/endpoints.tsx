// The raw endpoints at the end of /apotheosis: the same checks as the server answers them.
import { Card } from "../../components/card";
export function Endpoints() {
  return (
    <Card id="endpoints-heading" title="Raw endpoints" className="endpoints">
      <p className="card__hint">The same checks, as the server answers them.</p>
      <ul className="endpoints__list">
        <li>
          <a href="/health">/health</a> <span>the API process</span>
        </li>
        <li>
          <a href="/api/health">/api/health</a> <span>the API behind its /api prefix</span>
        </li>
        <li>
          <a href="/db-health">/db-health</a> <span>a round trip to the database</span>
        </li>
        <li>
          <a href="/api/status">/api/status</a> <span>the server's summary and incidents</span>
        </li>
      </ul>
    </Card>
  );
}
