// The raw endpoints at the end of /apotheosis: the same checks as the server answers them.
export function Endpoints() {
  return (
    <section className="card endpoints" aria-labelledby="endpoints-heading">
      <h2 id="endpoints-heading" className="card__title">
        Raw endpoints
      </h2>
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
    </section>
  );
}
