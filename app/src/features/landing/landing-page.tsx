// The landing page (/): the deployment's own texts, its information, the Wisdom button and live status.

import { docsDefaultPath, paths } from "@common/routes";
import { Link } from "react-router-dom";
import { usePageMeta } from "../../components/document-title";
import type { DeploymentConfig } from "../../lib/wasm/core";
import { useDeployment } from "../../lib/wasm/use-deployment";
import { DeploymentCard } from "./deployment-card";
import { ErrorNotice } from "./error-notice";
import { StatusCards } from "./status-cards";
import { WisdomCard } from "./wisdom-card";
import "./landing.css";
import { GraphicsWidget } from "../../graphics/graphics-widget";

/** `config`: the deployment to show (the build's own by default; tests pass others). */
export function LandingPage({ config }: { config?: DeploymentConfig }) {
  const info = useDeployment(config);
  usePageMeta(info.landing.title, `${info.landing.subtitle}. ${info.landing.description}`);
  // The deployment info is there from the first render (the build prerenders this page per deployment
  // type and flags, common/variant.ts), so the first paint already holds the final text (CLS 0).
  return (
    <main id="main" className="page landing">
      <ErrorNotice />
      <section className="hero" aria-labelledby="landing-title">
        <div className="hero__body">
          <p className="eyebrow">{info.type} deployment</p>
          <h1 id="landing-title" className="hero__title">
            {info.landing.title}
          </h1>
          <p className="hero__subtitle">{info.landing.subtitle}</p>
          <p className="hero__description">{info.landing.description}</p>
          <div className="hero__actions">
            <Link to={docsDefaultPath} className="button button--primary">
              Read the docs
            </Link>
            <Link to={paths.status} className="button">
              Stack status
            </Link>
          </div>
        </div>
        <GraphicsWidget scene="icosahedron" className="hero__art" />
      </section>
      <div className={`landing-grid${info.flags.apotheosis ? "" : " landing-grid--single"}`}>
        <DeploymentCard info={info} />
        {info.flags.apotheosis && <WisdomCard />}
      </div>
      <StatusCards info={info} />
    </main>
  );
}
