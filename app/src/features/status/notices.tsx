// What the status operators posted: incidents with their timelines and maintenance windows, as the
// server words and renders them (GET /status/notices/list, HTML made once a round; the update texts
// are the operators' Markdown rendered with no raw HTML, script or foreign link passing). The status
// page's machine asks for it in its rounds (with the first, every two minutes with the server's
// ETag, and at once after an operator posts): no timer here.
/** The page the same list makes without JavaScript (the server's). */
export const NOTICES_PAGE = "/status/notices";

/** `html`: the server's fragment once it came (the status machine asks for it in its rounds);
 * `message`: what is said until then. */
export function Notices({ html, message }: { html: string | null; message: string | null }) {
  return (
    <section className="card notices" aria-labelledby="notices-heading" data-testid="notices">
      <h2 id="notices-heading" className="card__title">
        From the operators
      </h2>
      {html === null ? (
        <p className="card__hint">{message}</p>
      ) : (
        <div
          className="notices__body"
          // The server's HTML: every word escaped, update texts rendered from Markdown with no raw
          // HTML, script or foreign link passing (status-formats/src/markdown.rs).
          dangerouslySetInnerHTML={{ __html: html }}
        />
      )}
      <p className="card__hint notices__page">
        <a href={NOTICES_PAGE}>Incidents and maintenance as a plain page</a> (readable without
        JavaScript).
      </p>
    </section>
  );
}
