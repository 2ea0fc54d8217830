// What the status operators posted: incidents with their timelines and maintenance windows, as the
// server words and renders them (GET /status/notices/list, HTML made once a round; the update texts
// are the operators' Markdown rendered with no raw HTML, script or foreign link passing). Asked on
// mount, every two minutes with the server's ETag, and after an operator posts; outside the page's
// rounds of checks and status requests.
import { useEffect, useState } from "react";
import { apiUrl, probe } from "../../lib/api-client";

const NOTICES_PATH = "/status/notices/list";
/** The page the same list makes without JavaScript (the server's). */
export const NOTICES_PAGE = "/status/notices";
/** Posts change rarely: asked every two minutes (a 304 while nothing changed), and after a post. */
const EVERY_MS = 120_000;

export function Notices({ refresh }: { refresh: number }) {
  const [html, setHtml] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  // `refresh` is the signal to ask again.
  useEffect(() => {
    let etag: string | undefined;
    let live = true;
    const ask = async () => {
      const answer = await probe(apiUrl(NOTICES_PATH), etag);
      if (!live) return;
      if (answer?.status === 200) {
        etag = answer.etag;
        setHtml(answer.text);
        setFailed(false);
      } else if (answer?.status !== 304) {
        setFailed(true);
      }
    };
    void ask();
    const timer = window.setInterval(() => void ask(), EVERY_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [refresh]);
  return (
    <section className="card notices" aria-labelledby="notices-heading" data-testid="notices">
      <h2 id="notices-heading" className="card__title">
        From the operators
      </h2>
      {html === null ? (
        <p className="card__hint">
          {failed ? "The operators' posts are unavailable right now." : "Loading posts…"}
        </p>
      ) : (
        <div
          className="notices__body"
          // The server's HTML: every word escaped, update texts rendered from Markdown with no raw
          // HTML, script or foreign link passing (status/src/markdown.rs).
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
