// /apotheosis: the live health of the stack beside the server's history (90 daily uptime bars, the
// 24 h latency, uptime figures and incidents). One wasm machine runs the page (use-status-page.ts):
// one round of requests every 30 s, and every word and figure shown.
import { useDeferredValue } from "react";
import { usePageMeta } from "../../components/document-title";
import { NeedsScript } from "../../components/needs-script";
import { GraphicsWidget } from "../../graphics/graphics-widget";
import { useDeployment } from "../../lib/wasm/use-deployment";
import { type StatusSnapshot, useStatusPage } from "../../lib/wasm/use-status-page";
import { ComponentCard } from "./component-card";
import { BarsLegend } from "./day-bars";
import { Endpoints } from "./endpoints";
import { Incidents } from "./incidents";
import { NOTICES_PAGE, Notices } from "./notices";
import { OperatorView } from "./operator-view";
import "./status.css";
import "./stated.css";
import "./operators.css";

export function StatusPage() {
  usePageMeta(
    "Apotheosis status",
    "Live health of the deployed stack: API, database and task queue, with 90 days of uptime, latency and incidents.",
  );
  const info = useDeployment();
  // One machine runs every request of the page: the checks, the server's status and the operators'
  // posts; after an operator posts, `posted` makes its next round run at once.
  const status = useStatusPage({
    ethereal: info.ethereal,
    telekinesisQueueUrl: info.telekinesis_queue_url,
  });
  return (
    <main id="main" className="page status-page">
      <div className="page-intro">
        <div>
          <p className="eyebrow">Stack status</p>
          <h1>Apotheosis status</h1>
          <p className="page__lead">
            Health of the deployed stack, checked by this page every 30 seconds. The server checks
            each component on its own schedule and keeps 90 days of history.
          </p>
        </div>
        <GraphicsWidget scene="hypercube" size={220} className="page-intro__art" />
      </div>
      <NeedsScript>
        This page checks the stack and draws its history in your browser, which needs JavaScript.
        The raw endpoints at the end of the page answer without it, and the operators' incidents and
        maintenance read as a <a href={NOTICES_PAGE}>plain page</a>.
      </NeedsScript>
      {/* The deployment info is there from the first render (prerendered too); every part of a card
          has its height before its data (CLS 0). */}
      <Components ethereal={info.ethereal} status={status} />
      {!info.ethereal && (
        <Notices html={status.view.noticesHtml} message={status.view.noticesMessage} />
      )}
      {!info.ethereal && <OperatorView onPosted={status.posted} />}
      <Endpoints />
    </main>
  );
}

/** The page's overall status, the server's words (the checks and the operators combined); sized
 * before the answer arrives (no layout shift). */
function Overall({ words, indicator }: { words: string | null; indicator: string | null }) {
  return (
    <p
      className={`status-overall status-overall--${indicator ?? "waiting"}`}
      data-testid="status-overall"
    >
      <span className="status-overall__dot" aria-hidden="true" />
      {words ?? "Checking…"}
    </p>
  );
}

function Components({ ethereal, status }: { ethereal: boolean; status: StatusSnapshot }) {
  // The store's updates render synchronously (useSyncExternalStore). A live check changes only the
  // badges; the server's answers change the view, whose deferred copy renders the cards (90 bars and
  // a chart each) in a background pass React splits into short slices.
  const { live, view: current } = status;
  const view = useDeferredValue(current);
  return (
    <>
      {!ethereal && <Overall words={view.overall} indicator={view.overallIndicator} />}
      {!ethereal && <BarsLegend />}
      <ul className="status-list">
        {view.cards.map((card) => (
          <ComponentCard key={card.id} card={card} live={live.find((l) => l.id === card.id)} />
        ))}
      </ul>
      {view.showIncidents && <Incidents view={view} />}
    </>
  );
}
